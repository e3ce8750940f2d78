import { describe, expect, it } from 'vitest';
import {
  brandName,
  canCancel,
  canReprocess,
  canUndoCancel,
  cardExpiry,
  inGoodStanding,
  samePlanChoice,
  statusKey,
  timingChoices,
} from './billing-rules.ts';

const card = { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 };
const now = new Date('2026-11-26T00:00:00Z');

describe('billing rules', () => {
  it('allows plan change and cancel in the trial and when active, not after a failed renewal or hold', () => {
    expect([1, 2, 6, 7, 9].map((status) => inGoodStanding({ status }))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(canCancel({ status: 2, cancel_at_period_end: false })).toBe(true);
    expect(canCancel({ status: 2, cancel_at_period_end: true })).toBe(false);
    expect(canCancel({ status: 6, cancel_at_period_end: false })).toBe(false);
  });

  it('applies a change at once during the trial, and offers booking it once paid', () => {
    expect(timingChoices({ status: 1 })).toEqual(['now']);
    expect(timingChoices({ status: 2 })).toEqual(['now', 'renewal']);
  });

  it('allows undoing a cancellation until the period ends', () => {
    const at = now.toISOString();
    const booked = { status: 2, cancel_at_period_end: true, at };
    expect(canUndoCancel({ ...booked, period_end: '2026-12-01T00:00:00Z' })).toBe(true);
    expect(canUndoCancel({ ...booked, period_end: '2026-11-25T00:00:00Z' })).toBe(false);
    expect(
      canUndoCancel({ ...booked, cancel_at_period_end: false, period_end: '2026-12-01T00:00:00Z' }),
    ).toBe(false);
    // Once the subscription has ended (Stripe keeps the flag), there is nothing left to undo.
    expect(canUndoCancel({ ...booked, status: 9, period_end: '2026-12-01T00:00:00Z' })).toBe(false);
  });

  it('offers reprocess only with a card after a failed renewal or on hold', () => {
    expect(canReprocess({ status: 6, card })).toBe(true);
    expect(canReprocess({ status: 7, card })).toBe(true);
    expect(canReprocess({ status: 6, card: null })).toBe(false);
    expect(canReprocess({ status: 2, card })).toBe(false);
  });

  it('compares plan choices whatever the order of their add-ons', () => {
    const a = { plan: 2, cycle: 'month' as const, options: ['ss', 'sites:1'] };
    expect(samePlanChoice(a, { ...a, options: ['sites:1', 'ss'] })).toBe(true);
    expect(samePlanChoice(a, { ...a, cycle: 'year' })).toBe(false);
  });

  it('prints the expiry as on the card', () => {
    expect(cardExpiry(card)).toBe('04/2031');
  });
});

describe('status and card names', () => {
  it('names each status the screens react to', () => {
    expect([1, 2, 6, 7, 9, 0].map(statusKey)).toEqual([
      'trial',
      'active',
      'renewalFailed',
      'onHold',
      'ended',
      'none',
    ]);
  });

  it('shows a brand as printed on the card, an unknown one as Stripe names it', () => {
    expect(brandName('visa')).toBe('Visa');
    expect(brandName('cartes_bancaires')).toBe('cartes_bancaires');
  });
});
