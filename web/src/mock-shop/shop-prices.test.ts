import { describe, expect, it } from 'vitest';
import { formatYen, minuteOf, nextMinuteStart, priceAt, shopProducts, stockAt } from './shop-prices.ts';

const now = Date.UTC(2026, 10, 23, 15, 12, 30);

describe('demo shop prices', () => {
  it('are the same for two browsers in the same minute and change at the next one', () => {
    const minute = minuteOf(now);
    expect(minuteOf(now + 29_000)).toBe(minute);
    expect(nextMinuteStart(now)).toBe(Date.UTC(2026, 10, 23, 15, 13, 0));
    for (const product of shopProducts) {
      expect(priceAt(product, minuteOf(now + 29_000))).toBe(priceAt(product, minute));
      expect(priceAt(product, minute + 1)).not.toBe(priceAt(product, minute));
    }
  });

  it('follow the product’s minute where tests pass it faster', () => {
    const minuteMs = 2_000;
    expect(minuteOf(now + 1_999, minuteMs)).toBe(minuteOf(now, minuteMs));
    expect(minuteOf(now + 2_000, minuteMs)).toBe(minuteOf(now, minuteMs) + 1);
    expect(nextMinuteStart(now, minuteMs)).toBe(now + 2_000);
  });

  it('never repeat within half an hour, so no check mistakes a change for a past update', () => {
    for (const product of shopProducts) {
      const start = minuteOf(now);
      const window = Array.from({ length: 30 }, (_, offset) => priceAt(product, start + offset));
      expect(new Set(window).size).toBe(30);
    }
  });

  it('stay within a fifth of the base price, in whole tens of yen', () => {
    for (const product of shopProducts) {
      for (let minute = minuteOf(now); minute < minuteOf(now) + 60; minute++) {
        const price = priceAt(product, minute);
        expect(price % 10).toBe(0);
        expect(Math.abs(price - product.basePrice)).toBeLessThanOrEqual(product.basePrice * 0.2);
      }
    }
  });

  it('show stock that changes over time and includes each status', () => {
    const seen = new Set(
      shopProducts.flatMap((product) =>
        Array.from({ length: 200 }, (_, offset) => stockAt(product, minuteOf(now) + offset)),
      ),
    );
    expect([...seen].sort()).toEqual(['fewLeft', 'inStock', 'soldOut']);
  });

  it('write yen the same way in every language', () => {
    expect(formatYen(12_800)).toBe('¥12,800');
  });
});
