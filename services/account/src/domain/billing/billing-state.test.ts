import { NO_QUOTA, planQuota } from '@mimamori/plans';
import { describe, expect, it } from 'vitest';
import type { BillingRecord, ProviderSubscription } from './billing-record.ts';
import {
  afterNewCard,
  assertCanReprocess,
  assertCanSubscribeAgain,
  BillingRefused,
  billingMails,
  bookChange,
  cancelAtPeriodEnd,
  dropBookedChange,
  followProvider,
  holdIfDue,
  overAfterChange,
  planChangeTiming,
  subscribedAgain,
  undoCancel,
} from './billing-state.ts';

const NOW = new Date('2026-11-01T00:00:00Z');
const DAY = 86_400_000;
const GRACE = 7 * DAY;
const CARD = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2029 };

const record = (over: Partial<BillingRecord> = {}): BillingRecord => ({
  userId: 'u1',
  currency: 'JPY',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  providerStatus: 'trialing',
  status: 1,
  suspendAt: new Date(NOW.getTime() + 14 * DAY),
  periodEnd: new Date(NOW.getTime() + 14 * DAY),
  cancelAtPeriodEnd: false,
  current: { plan: 3, cycle: 'month', options: [] },
  booked: null,
  card: null,
  ...over,
});

const sub = (over: Partial<ProviderSubscription> = {}): ProviderSubscription => ({
  id: 'sub_1',
  customerId: 'cus_1',
  status: 'active',
  trialEnd: null,
  currentPeriodEnd: new Date(NOW.getTime() + 30 * DAY),
  cancelAtPeriodEnd: false,
  lines: [{ lookupKey: 'plan3_month_jpy', quantity: 1 }],
  scheduled: false,
  ...over,
});

describe('following the provider', () => {
  it('a trial is status 1 and stops monitoring at its end', () => {
    const trialEnd = new Date(NOW.getTime() + 14 * DAY);
    const { record: next, effects } = followProvider(
      record(),
      sub({ status: 'trialing', trialEnd }),
      NOW,
      GRACE,
    );
    expect(next.status).toBe(1);
    expect(next.suspendAt).toEqual(trialEnd);
    expect(effects).toEqual([]);
  });

  it('a trial ended without a card (paused) is a hold: monitoring stops, no card on file', () => {
    const { record: next, effects } = followProvider(record(), sub({ status: 'paused' }), NOW, GRACE);
    expect(next.status).toBe(7);
    expect(next.card).toBeNull();
    expect(effects).toEqual(['monitoring_stopped', 'trial_ended_without_card']);
  });

  it('a failed renewal is status 6 with suspend_at = first failure + grace, kept across retries', () => {
    const active = record({ status: 2, providerStatus: 'active', card: CARD, suspendAt: null });
    const first = followProvider(active, sub({ status: 'past_due' }), NOW, GRACE);
    expect(first.record.status).toBe(6);
    expect(first.record.suspendAt).toEqual(new Date(NOW.getTime() + GRACE));
    expect(first.effects).toEqual(['renewal_failed']);
    const later = new Date(NOW.getTime() + 3 * DAY);
    const retry = followProvider(first.record, sub({ status: 'past_due' }), later, GRACE);
    expect(retry.record.suspendAt).toEqual(first.record.suspendAt);
    expect(retry.effects).toEqual([]);
  });

  it('status 6 past its deadline is put on hold by the sweep, once', () => {
    const failed = record({
      status: 6,
      providerStatus: 'past_due',
      card: CARD,
      suspendAt: new Date(NOW.getTime() + GRACE),
    });
    expect(holdIfDue(failed, NOW).effects).toEqual([]);
    const due = holdIfDue(failed, new Date(NOW.getTime() + GRACE));
    expect(due.record.status).toBe(7);
    expect(due.effects).toEqual(['monitoring_stopped']);
    expect(holdIfDue(due.record, new Date(NOW.getTime() + 2 * GRACE)).effects).toEqual([]);
    // A late past_due event does not take a hold back to 6.
    expect(followProvider(due.record, sub({ status: 'past_due' }), NOW, GRACE).record.status).toBe(7);
  });

  it('unpaid (the provider gave up retrying) is a hold too', () => {
    const failed = record({
      status: 6,
      providerStatus: 'past_due',
      card: CARD,
      suspendAt: new Date(NOW.getTime() + GRACE),
    });
    const { record: next, effects } = followProvider(failed, sub({ status: 'unpaid' }), NOW, GRACE);
    expect(next.status).toBe(7);
    expect(effects).toEqual(['monitoring_stopped']);
  });

  it('a payment that goes through clears 6 silently and lifts 7, monitoring may resume', () => {
    const failed = record({
      status: 6,
      providerStatus: 'past_due',
      card: CARD,
      suspendAt: new Date(NOW.getTime() + GRACE),
    });
    const cleared = followProvider(failed, sub(), NOW, GRACE);
    expect(cleared.record).toMatchObject({ status: 2, suspendAt: null });
    expect(cleared.effects).toEqual([]);
    const held = record({ status: 7, providerStatus: 'past_due', card: CARD });
    const lifted = followProvider(held, sub(), NOW, GRACE);
    expect(lifted.record.status).toBe(2);
    expect(lifted.effects).toEqual(['monitoring_may_resume']);
  });

  it('the subscription ending is status 9, monitoring stops', () => {
    const active = record({ status: 2, providerStatus: 'active', card: CARD });
    const { record: next, effects } = followProvider(active, sub({ status: 'canceled' }), NOW, GRACE);
    expect(next.status).toBe(9);
    expect(effects).toEqual(['monitoring_stopped', 'ended']);
  });

  it('takes the plan in force from the subscription, and forgets a booked change once applied', () => {
    const booked = record({
      status: 2,
      providerStatus: 'active',
      booked: { plan: 5, cycle: 'month', options: [] },
    });
    const applied = followProvider(
      booked,
      sub({ lines: [{ lookupKey: 'plan5_month_jpy', quantity: 1 }] }),
      NOW,
      GRACE,
    );
    expect(applied.record.current).toEqual({ plan: 5, cycle: 'month', options: [] });
    expect(applied.record.booked).toBeNull();
    expect(applied.effects).toEqual(['plan_changed']);
  });
});

describe('what the user may do', () => {
  it('changes the plan at once during the trial, and as asked once it is active', () => {
    expect(planChangeTiming(record(), 'renewal')).toBe('now');
    const active = record({ status: 2, providerStatus: 'active', card: CARD });
    expect(planChangeTiming(active, 'renewal')).toBe('renewal');
    expect(planChangeTiming(active, 'now')).toBe('now');
  });

  it('needs renewal first: no plan change or cancel in status 6 or 7', () => {
    for (const status of [6, 7]) {
      const stuck = record({ status, providerStatus: status === 6 ? 'past_due' : 'paused', card: CARD });
      expect(() => planChangeTiming(stuck, 'now')).toThrow(BillingRefused);
      expect(() => cancelAtPeriodEnd(stuck)).toThrow(/renew_first/);
    }
  });

  it('cancels to the period end and undoes it until then', () => {
    const active = record({ status: 2, providerStatus: 'active', card: CARD });
    const cancelling = cancelAtPeriodEnd(active);
    expect(cancelling.cancelAtPeriodEnd).toBe(true);
    expect(undoCancel(cancelling, NOW).cancelAtPeriodEnd).toBe(false);
    expect(() => undoCancel(active, NOW)).toThrow(/not_cancelling/);
    expect(() => undoCancel(cancelling, new Date(NOW.getTime() + 15 * DAY))).toThrow(/period_over/);
  });

  it('a new card resumes a paused trial, pays what is open in 6 or 7, and does nothing in good standing', () => {
    expect(afterNewCard(record({ status: 7, providerStatus: 'paused' }))).toBe('resume');
    expect(afterNewCard(record({ status: 6, providerStatus: 'past_due' }))).toBe('pay_open_invoices');
    expect(afterNewCard(record({ status: 7, providerStatus: 'past_due' }))).toBe('pay_open_invoices');
    expect(afterNewCard(record({ status: 2, providerStatus: 'active' }))).toBe('nothing');
  });

  it('reprocesses only with a card and something unpaid', () => {
    expect(() => assertCanReprocess(record({ status: 6, providerStatus: 'past_due' }))).toThrow(/no_card/);
    expect(() => assertCanReprocess(record({ status: 2, providerStatus: 'active', card: CARD }))).toThrow(
      /nothing_to_pay/,
    );
    expect(() =>
      assertCanReprocess(record({ status: 6, providerStatus: 'past_due', card: CARD })),
    ).not.toThrow();
  });

  it('allows a downgrade below current usage and names what will be over the new limits', () => {
    const used = { ...NO_QUOTA, _10min: 20, ss: 20, mail: 2 };
    expect(overAfterChange(planQuota(5), used)).toEqual([]);
    expect(overAfterChange(planQuota(3), used)).toEqual(['_10min', 'ss']);
  });
});

describe('billing mails', () => {
  it('sends one mail per change, naming its date and plan', () => {
    const trial = record();
    expect(billingMails(trial, ['trial_ending'])).toEqual([
      { kind: 'trial_ending', date: trial.suspendAt, plan: 3 },
    ]);
    // A card registered before the reminder: nothing to ask for.
    expect(billingMails(record({ card: CARD }), ['trial_ending'])).toEqual([]);

    const paused = followProvider(trial, sub({ status: 'paused' }), NOW, GRACE);
    expect(billingMails(paused.record, paused.effects).map((mail) => mail.kind)).toEqual([
      'trial_ended_no_card',
    ]);
    // The trial sweeper held the account first: the provider pausing still sends the mail.
    const sweptFirst = followProvider(record({ status: 7 }), sub({ status: 'paused' }), NOW, GRACE);
    expect(billingMails(sweptFirst.record, sweptFirst.effects).map((mail) => mail.kind)).toEqual([
      'trial_ended_no_card',
    ]);

    const active = record({ status: 2, providerStatus: 'active', card: CARD });
    const failed = followProvider(active, sub({ status: 'past_due' }), NOW, GRACE);
    expect(billingMails(failed.record, failed.effects)).toEqual([
      { kind: 'payment_failed', date: new Date(NOW.getTime() + GRACE), plan: 3 },
    ]);
    const held = holdIfDue(failed.record, new Date(NOW.getTime() + GRACE));
    expect(billingMails(held.record, held.effects).map((mail) => mail.kind)).toEqual(['account_held']);

    const changed = followProvider(
      active,
      sub({ lines: [{ lookupKey: 'plan5_month_jpy', quantity: 1 }] }),
      NOW,
      GRACE,
    );
    expect(billingMails(changed.record, changed.effects)).toEqual([
      { kind: 'plan_changed', date: null, plan: 5 },
    ]);

    const cancelling = followProvider(active, sub({ cancelAtPeriodEnd: true }), NOW, GRACE);
    expect(billingMails(cancelling.record, cancelling.effects)).toEqual([
      { kind: 'cancellation_confirmed', date: new Date(NOW.getTime() + 30 * DAY), plan: 3 },
    ]);
    // The end itself sends none.
    const ended = followProvider(
      cancelling.record,
      sub({ status: 'canceled', cancelAtPeriodEnd: true }),
      NOW,
      GRACE,
    );
    expect(billingMails(ended.record, ended.effects)).toEqual([]);
  });

  it('tells an undone cancellation once, with the renewal it keeps', () => {
    const active = record({ status: 2, providerStatus: 'active', card: CARD });
    const cancelling = followProvider(active, sub({ cancelAtPeriodEnd: true }), NOW, GRACE);
    const undone = followProvider(cancelling.record, sub(), NOW, GRACE);
    expect(billingMails(undone.record, undone.effects)).toEqual([
      { kind: 'cancellation_undone', date: new Date(NOW.getTime() + 30 * DAY), plan: 3 },
    ]);
    // Read again (the webhook after the request's own re-read): nothing changed, nothing sent.
    const again = followProvider(undone.record, sub(), NOW, GRACE);
    expect(billingMails(again.record, again.effects)).toEqual([]);
  });

  it('tells a lifted hold once, and not when the account ends instead', () => {
    const held = record({ status: 7, providerStatus: 'past_due', card: CARD });
    const lifted = followProvider(held, sub(), NOW, GRACE);
    expect(billingMails(lifted.record, lifted.effects)).toEqual([
      { kind: 'hold_lifted', date: null, plan: 3 },
    ]);
    expect(billingMails(followProvider(lifted.record, sub(), NOW, GRACE).record, [])).toEqual([]);
    const trialHeld = record({ status: 7, providerStatus: 'paused' });
    const resumed = followProvider(trialHeld, sub(), NOW, GRACE);
    expect(billingMails(resumed.record, resumed.effects).map((mail) => mail.kind)).toEqual(['hold_lifted']);
    const ended = followProvider(held, sub({ status: 'canceled' }), NOW, GRACE);
    expect(billingMails(ended.record, ended.effects)).toEqual([]);
    // The trial sweeper held the account before the provider paused it: read back as a trial, no
    // payment lifted anything.
    const sweptTrial = record({ status: 7, providerStatus: 'trialing' });
    const stillTrial = followProvider(sweptTrial, sub({ status: 'trialing' }), NOW, GRACE);
    expect(stillTrial.effects).toContain('monitoring_may_resume');
    expect(billingMails(stillTrial.record, stillTrial.effects)).toEqual([]);
  });

  it('tells a booked change with its plan and the renewal it takes effect at, once per booking', () => {
    const active = record({ status: 2, providerStatus: 'active', card: CARD, periodEnd: NOW });
    const booked = bookChange(active, { plan: 4, cycle: 'month', options: [] });
    expect(booked.record.booked).toEqual({ plan: 4, cycle: 'month', options: [] });
    expect(billingMails(booked.record, booked.effects)).toEqual([
      { kind: 'plan_change_booked', date: NOW, plan: 4 },
    ]);
    // The same booking asked again changes nothing and tells nothing; another plan is a new booking.
    expect(bookChange(booked.record, { plan: 4, cycle: 'month', options: [] }).effects).toEqual([]);
    expect(bookChange(booked.record, { plan: 4, cycle: 'year', options: [] }).effects).toEqual([
      'plan_change_booked',
    ]);
    const dropped = dropBookedChange(booked.record);
    expect(dropped.record.booked).toBeNull();
    expect(billingMails(dropped.record, dropped.effects)).toEqual([
      { kind: 'booked_change_cancelled', date: null, plan: 3 },
    ]);
  });
});

describe('subscribing again after the end', () => {
  const ended = record({ status: 9, providerStatus: 'canceled', card: CARD, periodEnd: NOW });

  it('is allowed only once the last subscription ended, and with a card on file', () => {
    expect(() => assertCanSubscribeAgain(ended)).not.toThrow();
    expect(() => assertCanSubscribeAgain({ ...ended, card: null })).toThrow(new BillingRefused('no_card'));
    expect(() =>
      assertCanSubscribeAgain(record({ status: 2, providerStatus: 'active', card: CARD })),
    ).toThrow(new BillingRefused('renew_first'));
    expect(() =>
      assertCanSubscribeAgain(record({ status: 7, providerStatus: 'paused', card: CARD })),
    ).toThrow(new BillingRefused('renew_first'));
  });

  it('makes the account active on the new subscription: its sites may resume, one mail says so', () => {
    const renewsAt = new Date(NOW.getTime() + 30 * DAY);
    const fresh = sub({
      id: 'sub_2',
      currentPeriodEnd: renewsAt,
      lines: [{ lookupKey: 'plan5_month_jpy', quantity: 1 }],
    });
    const { record: next, effects } = followProvider(
      subscribedAgain({ ...ended, cancelAtPeriodEnd: true }, 'sub_2'),
      fresh,
      NOW,
      GRACE,
    );
    expect(next).toMatchObject({
      subscriptionId: 'sub_2',
      status: 2,
      cancelAtPeriodEnd: false,
      booked: null,
      current: { plan: 5, cycle: 'month', options: [] },
    });
    expect(effects).toEqual(['monitoring_may_resume', 'subscribed_again']);
    // Not "the hold was lifted" nor "the plan changed": the mail says the subscription started again.
    expect(billingMails(next, effects)).toEqual([{ kind: 'subscribed_again', date: renewsAt, plan: 5 }]);
  });
});
