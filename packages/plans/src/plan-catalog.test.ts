import { describe, expect, it } from 'vitest';
import { customPlanQuota, InvalidCustomOption } from './custom-plan.ts';
import { isPlanId, PLAN_NAMES, PLANS, type PlanId, planName } from './plan-catalog.ts';
import { formatPrice, parsePlanPrices, planPrice } from './plan-prices.ts';
import { planQuota } from './plan-quota.ts';

const total = (plan: PlanId) => {
  const q = planQuota(plan);
  return q._60min + q._10min + q._1min;
};

describe('plan catalogue', () => {
  it('has ids 0..11 with their target counts and 1-minute slots', () => {
    expect(Object.keys(PLANS).map(Number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect([total(3), total(4), total(5)]).toEqual([5, 5, 25]);
    expect([6, 7, 8, 9, 10].map((id) => planQuota(id as PlanId)._1min)).toEqual([5, 10, 15, 20, 25]);
    expect([6, 7, 8, 9, 10].map((id) => total(id as PlanId))).toEqual([25, 25, 25, 25, 25]);
    expect(planQuota(4)._1min).toBe(5);
    expect(PLANS[0].nameKey).toBe('');
    expect(isPlanId(12)).toBe(false);
    expect(isPlanId(2.5)).toBe(false);
  });

  it('names every plan 2..11 in both languages from one table, and 0 and 1 not at all', () => {
    expect(planName(4, 'ja')).toBe('ベーシック5 (1分間隔)');
    expect(planName(4, 'en')).toBe('Basic 5 (1-minute interval)');
    expect(planName(11, 'ja')).toBe('アドバンスト');
    expect([planName(0, 'ja'), planName(1, 'en'), planName(12, 'en')]).toEqual(['', '', '']);
    const billed = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;
    for (const id of billed) {
      expect(planName(id, 'ja')).not.toBe('');
      expect(planName(id, 'ja')).not.toBe(planName(id, 'en'));
    }
    // Each plan has its own key, so the SPA's `plans.<key>` and the mails name it alike.
    expect(new Set(billed.map((id) => PLANS[id].nameKey)).size).toBe(billed.length);
    // Each name belongs to one plan.
    expect(new Set(Object.values(PLAN_NAMES.ja)).size).toBe(10);
    expect(new Set(Object.values(PLAN_NAMES.en)).size).toBe(10);
  });

  it('gives a fresh quota object each time', () => {
    planQuota(3)._10min = 99;
    expect(planQuota(3)._10min).toBe(5);
  });
});

describe('custom plan', () => {
  it('starts at 5 sites, 1 hour, e-mail only', () => {
    expect(customPlanQuota([])).toEqual({
      _60min: 5,
      _10min: 0,
      _1min: 0,
      random_ip: 0,
      ss: 0,
      mail: 0,
      line_notify: 0,
    });
  });

  it('adds sites in 5-site units and moves them all to the faster interval', () => {
    expect(customPlanQuota(['sites:2', '10min', 'ss', 'mail:2', 'line'])).toEqual({
      _60min: 0,
      _10min: 15,
      _1min: 0,
      random_ip: 0,
      ss: 15,
      mail: 2,
      line_notify: 15,
    });
    expect(customPlanQuota(['1min', '10min'])._1min).toBe(5);
  });

  it('refuses unknown or malformed options', () => {
    expect(() => customPlanQuota(['gold'])).toThrow(InvalidCustomOption);
    expect(() => customPlanQuota(['sites:-1'])).toThrow(InvalidCustomOption);
  });
});

describe('prices', () => {
  const prices = parsePlanPrices('{"3":{"month":{"JPY":980,"USD":700},"year":{"JPY":9800,"USD":7000}}}');

  it('reads yen and cents per cycle from configuration', () => {
    expect(planPrice(prices, 3, 'year', 'USD')).toBe(7000);
    expect(planPrice(prices, 3, 'month', 'JPY')).toBe(980);
    expect(planPrice(prices, 5, 'month', 'JPY')).toBe(0);
  });

  it('refuses unknown plans and non-integer amounts', () => {
    expect(() => parsePlanPrices('{"12":{}}')).toThrow(/unknown plan/);
    expect(() => parsePlanPrices('{"3":{"month":{"JPY":9.5,"USD":1},"year":{"JPY":1,"USD":1}}}')).toThrow(
      /whole/,
    );
  });

  it('formats yen as whole units and cents as dollars', () => {
    expect(formatPrice(9800, 'JPY')).toBe('¥9,800');
    expect(formatPrice(700, 'USD')).toBe('$7.00');
  });
});
