import { describe, expect, it } from 'vitest';
import { silenceDue } from './silence.ts';

const day = (n: number) => new Date(Date.UTC(2026, 11, 1 + n));

describe('silence alerts (docs/product.md#silence-alerts)', () => {
  it('is due once the site has gone the set number of days without an update', () => {
    const watch = { lastChangeAt: day(0), toldFor: null };
    expect(silenceDue(watch, 7, day(6))).toBe(false);
    expect(silenceDue(watch, 7, day(7))).toBe(true);
  });

  it('is told once per spell, and again after the next update and another quiet spell', () => {
    expect(silenceDue({ lastChangeAt: day(0), toldFor: day(0) }, 7, day(30))).toBe(false);
    const afterUpdate = { lastChangeAt: day(10), toldFor: day(0) };
    expect(silenceDue(afterUpdate, 7, day(16))).toBe(false);
    expect(silenceDue(afterUpdate, 7, day(17))).toBe(true);
  });

  it('is off at 0 and outside the range', () => {
    const watch = { lastChangeAt: day(0), toldFor: null };
    expect(silenceDue(watch, 0, day(400))).toBe(false);
    expect(silenceDue(watch, 366, day(400))).toBe(false);
  });
});
