import { describe, expect, it } from 'vitest';
import { auditRetentionDays, HISTORY_LIMITS, historyLimits, PLANS, type PlanId } from './plan-catalog.ts';

describe('history limits (docs/product.md#history)', () => {
  it('give every plan some history, more for the bigger plans', () => {
    for (const id of Object.keys(PLANS).map(Number) as PlanId[]) {
      expect(HISTORY_LIMITS[id].updates).toBeGreaterThan(0);
      expect(HISTORY_LIMITS[id].checkDays).toBeGreaterThan(0);
    }
    expect(historyLimits(3)).toEqual({ updates: 100, checkDays: 30 });
    expect(historyLimits(5)).toEqual({ updates: 300, checkDays: 90 });
    expect(historyLimits(11)).toEqual({ updates: 1_000, checkDays: 365 });
  });

  it('keep the smallest for no plan or an unknown one', () => {
    expect(historyLimits(0)).toEqual(historyLimits(3));
    expect(historyLimits(42)).toEqual(historyLimits(3));
  });
});

describe('audit log retention (docs/product.md#audit-log)', () => {
  it('keeps entries longer on bigger plans, and the smallest for no plan', () => {
    expect(auditRetentionDays(3)).toBe(90);
    expect(auditRetentionDays(5)).toBe(180);
    expect(auditRetentionDays(11)).toBe(365);
    expect(auditRetentionDays(0)).toBe(90);
    expect(auditRetentionDays(42)).toBe(90);
  });
});
