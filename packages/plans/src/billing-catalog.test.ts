import { describe, expect, it } from 'vitest';
import { billingCatalogue, parseAddonPrices, planFromLines, subscriptionLines } from './billing-catalog.ts';
import { parsePlanPrices } from './plan-prices.ts';

const planPrices = parsePlanPrices(
  '{"3":{"month":{"JPY":980,"USD":700},"year":{"JPY":9800,"USD":7000}},"2":{"month":{"JPY":500,"USD":400},"year":{"JPY":5000,"USD":4000}}}',
);
const addonPrices = parseAddonPrices('{"ss":{"month":{"JPY":300,"USD":200},"year":{"JPY":3000,"USD":2000}}}');

describe('billing catalogue', () => {
  it('sells each priced plan and add-on per cycle of 30 or 365 days and per currency, in the smallest unit', () => {
    const catalogue = billingCatalogue(planPrices, addonPrices);
    expect(catalogue.map((product) => product.productId)).toEqual([
      'mimamori_plan_2',
      'mimamori_plan_3',
      'mimamori_addon_ss',
    ]);
    const basic5 = catalogue.find((product) => product.productId === 'mimamori_plan_3');
    expect(basic5?.name).toBe('Basic 5');
    expect(basic5?.prices).toEqual([
      { lookupKey: 'plan3_month_jpy', currency: 'JPY', cycle: 'month', unitAmount: 980, intervalDays: 30 },
      { lookupKey: 'plan3_month_usd', currency: 'USD', cycle: 'month', unitAmount: 700, intervalDays: 30 },
      { lookupKey: 'plan3_year_jpy', currency: 'JPY', cycle: 'year', unitAmount: 9800, intervalDays: 365 },
      { lookupKey: 'plan3_year_usd', currency: 'USD', cycle: 'year', unitAmount: 7000, intervalDays: 365 },
    ]);
  });

  it('gives a catalogue plan one line and the custom plan a line per add-on with its quantity', () => {
    expect(subscriptionLines(5, [], 'year', 'USD')).toEqual([{ lookupKey: 'plan5_year_usd', quantity: 1 }]);
    expect(
      subscriptionLines(2, ['sites:2', 'sites:1', '10min', '1min', 'ss', 'mail:2'], 'month', 'JPY'),
    ).toEqual([
      { lookupKey: 'plan2_month_jpy', quantity: 1 },
      { lookupKey: 'addon_sites_5_month_jpy', quantity: 3 },
      { lookupKey: 'addon_1min_month_jpy', quantity: 1 },
      { lookupKey: 'addon_ss_month_jpy', quantity: 1 },
      { lookupKey: 'addon_mail_month_jpy', quantity: 2 },
    ]);
    expect(() => subscriptionLines(2, ['gold'], 'month', 'JPY')).toThrow(/unknown custom option/);
  });

  it('refuses add-on prices for an unknown add-on or without both currencies', () => {
    expect(() => parseAddonPrices('{"gold":{}}')).toThrow(/unknown add-on/);
    expect(() => parseAddonPrices('{"ss":{"month":{"JPY":1},"year":{"JPY":1,"USD":1}}}')).toThrow(/ss month/);
  });
});

describe('reading a subscription back', () => {
  it('finds the plan, cycle and options from the lines it was made of', () => {
    const options = ['sites:3', '1min', 'ss', 'mail:2'];
    expect(planFromLines(subscriptionLines(2, options, 'year', 'USD'))).toEqual({
      plan: 2,
      cycle: 'year',
      options,
    });
    expect(planFromLines(subscriptionLines(7, [], 'month', 'JPY'))).toEqual({
      plan: 7,
      cycle: 'month',
      options: [],
    });
    expect(planFromLines([{ lookupKey: 'hand_made', quantity: 1 }])).toBeNull();
  });
});
