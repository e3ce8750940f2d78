import { describe, expect, it } from 'vitest';
import { formatYen, nextTurnStart, priceAt, shopProducts, stockAt, turnOf } from './shop-prices.ts';

const now = Date.UTC(2026, 10, 23, 15, 12, 30);

describe('demo shop prices', () => {
  it('are the same for two browsers in the same half minute and change at the next one', () => {
    const turn = turnOf(now);
    expect(turnOf(now + 29_999)).toBe(turn);
    expect(turnOf(now + 30_000)).toBe(turn + 1);
    expect(nextTurnStart(now)).toBe(Date.UTC(2026, 10, 23, 15, 13, 0));
    for (const product of shopProducts) {
      expect(priceAt(product, turnOf(now + 29_999))).toBe(priceAt(product, turn));
      expect(priceAt(product, turn + 1)).not.toBe(priceAt(product, turn));
    }
  });

  it('differ between reads a minute apart even when the first was up to half a minute late', () => {
    // A first check read 29 s after its time and the next one on time, a minute after the first's.
    for (let start = now; start < now + 60_000; start += 1_000) {
      const first = start + 29_000;
      const second = start + 60_000;
      expect(turnOf(second)).not.toBe(turnOf(first));
      for (const product of shopProducts) {
        expect(priceAt(product, turnOf(second))).not.toBe(priceAt(product, turnOf(first)));
      }
    }
  });

  it('follow the product’s minute where tests pass it faster', () => {
    const minuteMs = 2_000;
    expect(turnOf(now + 999, minuteMs)).toBe(turnOf(now, minuteMs));
    expect(turnOf(now + 1_000, minuteMs)).toBe(turnOf(now, minuteMs) + 1);
    expect(nextTurnStart(now, minuteMs)).toBe(now + 1_000);
  });

  it('never repeat within a quarter of an hour, so no check mistakes a change for a past update', () => {
    for (const product of shopProducts) {
      const start = turnOf(now);
      const window = Array.from({ length: 30 }, (_, offset) => priceAt(product, start + offset));
      expect(new Set(window).size).toBe(30);
    }
  });

  it('stay within a fifth of the base price, in whole tens of yen', () => {
    for (const product of shopProducts) {
      for (let turn = turnOf(now); turn < turnOf(now) + 120; turn++) {
        const price = priceAt(product, turn);
        expect(price % 10).toBe(0);
        expect(Math.abs(price - product.basePrice)).toBeLessThanOrEqual(product.basePrice * 0.2);
      }
    }
  });

  it('show stock that changes over time and includes each status', () => {
    const seen = new Set(
      shopProducts.flatMap((product) =>
        Array.from({ length: 400 }, (_, offset) => stockAt(product, turnOf(now) + offset)),
      ),
    );
    expect([...seen].sort()).toEqual(['fewLeft', 'inStock', 'soldOut']);
  });

  it('write yen the same way in every language', () => {
    expect(formatYen(12_800)).toBe('¥12,800');
  });
});
