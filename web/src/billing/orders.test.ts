import { describe, expect, it } from 'vitest';
import type { Billing, PlanCatalogue, PlanChoice } from '../api/billing.ts';
import { cardOrder, planOrder } from './orders.ts';

const quota = { _60min: 0, _10min: 0, _1min: 0, random_ip: 0, ss: 0, mail: 0, line_notify: 0 };
const plans: PlanCatalogue = {
  plans: [3, 5].map((plan) => ({
    plan,
    name_key: '',
    sites: 5,
    num: quota,
    prices: { month: { JPY: plan * 300, USD: plan * 200 }, year: { JPY: plan * 3000, USD: plan * 2000 } },
  })),
  addons: [],
};
const TRIAL_END = '2026-12-20T00:00:00.000Z';
const PERIOD_END = '2027-01-05T00:00:00.000Z';
const billing = (over: Partial<Billing>): Billing =>
  ({
    status: 2,
    suspend_at: null,
    plan: { plan: 3, cycle: 'month', options: [] },
    booked: null,
    cancel_at_period_end: false,
    period_end: PERIOD_END,
    currency: 'JPY',
    card: null,
    ...over,
  }) as Billing;
const CARD = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 };
const basic25: PlanChoice = { plan: 5, cycle: 'month', options: [] };

describe('the order a card places', () => {
  it('during the trial: the plan from the trial’s end, nothing now', () => {
    expect(cardOrder(billing({ status: 1, suspend_at: TRIAL_END }), plans)).toEqual({
      choice: { plan: 3, cycle: 'month', options: [] },
      currency: 'JPY',
      price: 900,
      now: null,
      firstChargeAt: TRIAL_END,
      trialEnd: TRIAL_END,
    });
  });

  it('after a trial that ended without one: the first period now', () => {
    expect(cardOrder(billing({ status: 7 }), plans)).toMatchObject({
      price: 900,
      now: { amount: 900, prorated: false },
      firstChargeAt: null,
      trialEnd: null,
    });
  });

  it('none when a card replaces another, or the subscription has ended', () => {
    expect(cardOrder(billing({ status: 1, card: CARD }), plans)).toBeNull();
    expect(cardOrder(billing({ status: 2, card: CARD }), plans)).toBeNull();
    expect(cardOrder(billing({ status: 9 }), plans)).toBeNull();
  });
});

describe('the order a plan change places', () => {
  it('ordered again after the end: the whole first period now', () => {
    expect(
      planOrder(billing({ status: 9, card: CARD }), basic25, 'now', true, plans, undefined),
    ).toMatchObject({
      price: 1500,
      now: { amount: 1500, prorated: false },
      firstChargeAt: null,
    });
  });

  it('during the trial: the new plan from the trial’s end', () => {
    const trial = billing({ status: 1, suspend_at: TRIAL_END, card: CARD });
    expect(planOrder(trial, basic25, 'now', false, plans, undefined)).toMatchObject({
      now: null,
      firstChargeAt: TRIAL_END,
      trialEnd: TRIAL_END,
    });
  });

  it('booked for the renewal: nothing now, the new price from the period’s end', () => {
    expect(planOrder(billing({}), basic25, 'renewal', false, plans, undefined)).toMatchObject({
      price: 1500,
      now: null,
      firstChargeAt: PERIOD_END,
    });
  });

  it('at once: the previewed proration now, the new price from the period the change leaves', () => {
    const preview = {
      amount_now: 412,
      period_end: PERIOD_END,
      proration_date: 1,
      currency: 'JPY',
      trial: false,
    };
    expect(planOrder(billing({}), basic25, 'now', false, plans, preview)).toMatchObject({
      now: { amount: 412, prorated: true },
      firstChargeAt: PERIOD_END,
    });
  });
});
