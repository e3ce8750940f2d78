import { describe, expect, it } from 'vitest';
import type { PlanCatalogue } from '../api/billing.ts';
import { choicePrice, planOnlyPrice, visitorCurrency } from './plan-price.ts';

const quota = { _60min: 0, _10min: 0, _1min: 0, random_ip: 0, ss: 0, mail: 0, line_notify: 0 };
const entry = (plan: number, prices: PlanCatalogue['plans'][number]['prices']) => ({
  plan,
  name_key: '',
  sites: 5,
  num: quota,
  prices,
});
const plans: PlanCatalogue = {
  plans: [
    entry(2, { month: { JPY: 500, USD: 400 }, year: { JPY: 5000, USD: 4000 } }),
    entry(3, { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } }),
    entry(5, null),
  ],
  addons: [
    { addon: 'sites_5', prices: { month: { JPY: 400, USD: 300 }, year: { JPY: 4000, USD: 3000 } } },
    { addon: 'ss', prices: { month: { JPY: 300, USD: 200 }, year: { JPY: 3000, USD: 2000 } } },
    { addon: 'mail', prices: { month: { JPY: 100, USD: 80 }, year: { JPY: 1000, USD: 800 } } },
    { addon: 'line', prices: null },
  ],
};

describe('plan prices', () => {
  it('prices a catalogue plan per cycle and currency', () => {
    expect(planOnlyPrice(plans, 3, 'month', 'JPY')).toBe(980);
    expect(planOnlyPrice(plans, 3, 'year', 'USD')).toBe(7000);
  });

  it('adds each custom add-on times its quantity to the base price', () => {
    const price = choicePrice(
      plans,
      { plan: 2, cycle: 'month', options: ['sites:2', 'ss', 'mail:3'] },
      'JPY',
    );
    expect(price).toBe(500 + 2 * 400 + 300 + 3 * 100);
  });

  it('has no price for a plan or add-on that is not sold, or an unknown option', () => {
    expect(planOnlyPrice(plans, 5, 'month', 'JPY')).toBeNull();
    expect(choicePrice(plans, { plan: 2, cycle: 'month', options: ['line'] }, 'JPY')).toBeNull();
    expect(choicePrice(plans, { plan: 2, cycle: 'month', options: ['gold'] }, 'JPY')).toBeNull();
    expect(choicePrice(plans, { plan: 12, cycle: 'month', options: [] }, 'JPY')).toBeNull();
  });

  it('shows a visitor yen in Japanese and dollars otherwise', () => {
    expect(visitorCurrency('ja')).toBe('JPY');
    expect(visitorCurrency('en')).toBe('USD');
    expect(visitorCurrency(undefined)).toBe('USD');
  });
});
