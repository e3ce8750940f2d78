import { planFromLines, QUOTA_KEYS, type Quota, type QuotaKey } from '@mimamori/plans';
import { SubscriptionStatus } from '../account-record.ts';
import type { BillingRecord, PlanChoice, ProviderSubscription } from './billing-record.ts';

/**
 * What a change of billing state means for the rest of the product: monitoring must stop (hold,
 * end), may resume (the hold is lifted; sites stay paused until the user resumes them), or a mail
 * is due.
 */
export type BillingEffect =
  | 'monitoring_stopped'
  | 'monitoring_may_resume'
  | 'renewal_failed'
  | 'trial_ended_without_card'
  | 'plan_changed'
  | 'plan_change_booked'
  | 'booked_change_cancelled'
  | 'trial_ending'
  | 'cancellation_confirmed'
  | 'cancellation_undone'
  | 'ended'
  | 'subscribed_again';

export interface BillingChange {
  record: BillingRecord;
  effects: BillingEffect[];
}

/**
 * The product's status for the provider's subscription, re-read from the provider (never taken from a
 * webhook's copy, which may be older than what is already recorded):
 * - trialing → 1 (trial), monitoring stops at the trial's end;
 * - active → 2; a renewal failure or hold is cleared;
 * - past_due → 6 (renewal failed) with `suspendAt` = first failure + grace, kept across retries; past
 *   it, 7 (hold);
 * - unpaid → 7 (the provider gave up retrying: a backstop for our own deadline);
 * - paused → 7 (the trial ended without a card);
 * - canceled → 9.
 */
export function followProvider(
  record: BillingRecord,
  sub: ProviderSubscription,
  now: Date,
  graceMs: number,
): BillingChange {
  const next: BillingRecord = {
    ...record,
    providerStatus: sub.status,
    periodEnd: sub.currentPeriodEnd,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    current: planFromLines(sub.lines) ?? record.current,
    booked: sub.scheduled ? record.booked : null,
  };
  const failedBefore =
    record.status === SubscriptionStatus.renewalFailed || record.status === SubscriptionStatus.onHold;
  switch (sub.status) {
    case 'trialing':
      next.status = SubscriptionStatus.trial;
      next.suspendAt = sub.trialEnd;
      break;
    case 'active':
      next.status = SubscriptionStatus.active;
      next.suspendAt = null;
      break;
    case 'past_due':
    case 'incomplete': {
      const suspendAt =
        failedBefore && record.suspendAt ? record.suspendAt : new Date(now.getTime() + graceMs);
      next.suspendAt = suspendAt;
      next.status =
        record.status === SubscriptionStatus.onHold || suspendAt <= now
          ? SubscriptionStatus.onHold
          : SubscriptionStatus.renewalFailed;
      break;
    }
    case 'unpaid':
    case 'paused':
      next.status = SubscriptionStatus.onHold;
      next.suspendAt = sub.status === 'paused' ? null : record.suspendAt;
      break;
    case 'canceled':
    case 'incomplete_expired':
      next.status = SubscriptionStatus.cancelled;
      next.suspendAt = null;
      break;
  }
  return { record: next, effects: effectsOf(record, next) };
}

/** Status 6 past its deadline becomes 7: monitoring stops until a payment goes through. */
export function holdIfDue(record: BillingRecord, now: Date): BillingChange {
  if (record.status !== SubscriptionStatus.renewalFailed || !record.suspendAt || record.suspendAt > now) {
    return { record, effects: [] };
  }
  const next = { ...record, status: SubscriptionStatus.onHold };
  return { record: next, effects: effectsOf(record, next) };
}

function effectsOf(before: BillingRecord, after: BillingRecord): BillingEffect[] {
  const effects: BillingEffect[] = [];
  const { onHold, cancelled, renewalFailed } = SubscriptionStatus;
  if (after.status === onHold && before.status !== onHold) effects.push('monitoring_stopped');
  // Also when the trial sweeper held the account first: the provider pausing is the trial's end.
  if (after.providerStatus === 'paused' && before.providerStatus !== 'paused') {
    effects.push('trial_ended_without_card');
  }
  if (before.status === onHold && after.status !== onHold && after.status !== cancelled) {
    effects.push('monitoring_may_resume');
  }
  if (after.status === renewalFailed && before.status !== renewalFailed) effects.push('renewal_failed');
  if (after.status === cancelled && before.status !== cancelled) effects.push('monitoring_stopped', 'ended');
  // A new subscription after the end: like a lifted hold, the sites the end paused may be resumed.
  const again = before.status === cancelled && after.status !== cancelled;
  if (again) effects.push('monitoring_may_resume', 'subscribed_again');
  if (!samePlan(before.current, after.current) && after.status !== cancelled && !again) {
    effects.push('plan_changed');
  }
  if (after.cancelAtPeriodEnd && !before.cancelAtPeriodEnd && after.status !== cancelled) {
    effects.push('cancellation_confirmed');
  }
  if (before.cancelAtPeriodEnd && !after.cancelAtPeriodEnd && after.status !== cancelled) {
    effects.push('cancellation_undone');
  }
  return effects;
}

/**
 * A change booked for the next renewal (docs/product.md#subscription): recorded with its mail, unless
 * the same change was booked already (a repeated request changes nothing, so it tells nothing).
 */
export function bookChange(record: BillingRecord, choice: PlanChoice): BillingChange {
  if (record.booked && samePlan(record.booked, choice)) return { record, effects: [] };
  return { record: { ...record, booked: choice }, effects: ['plan_change_booked'] };
}

/**
 * The user dropped the booked change and the provider released it: the current plan renews as it is.
 * The provider's webhook may have recorded the release first, so the mail follows the request (which
 * is refused once nothing is booked), not the record's booking.
 */
export function dropBookedChange(record: BillingRecord): BillingChange {
  return { record: { ...record, booked: null }, effects: ['booked_change_cancelled'] };
}

export type BillingMailKind =
  | 'trial_ending'
  | 'trial_ended_no_card'
  | 'payment_failed'
  | 'account_held'
  | 'hold_lifted'
  | 'plan_changed'
  | 'plan_change_booked'
  | 'booked_change_cancelled'
  | 'cancellation_confirmed'
  | 'cancellation_undone'
  | 'subscribed_again';

/** A billing mail to the account's address: what happened, the date it names and the plan. */
export interface BillingMail {
  kind: BillingMailKind;
  /**
   * The trial's end, the hold deadline (suspend_at), or the period's end (when a cancellation or a
   * booked change takes effect, or the renewal an undone cancellation keeps); null when none applies.
   */
  date: Date | null;
  /** The plan in force, or the one booked for the next renewal. */
  plan: number;
}

/**
 * The mails a billing change sends (docs/product.md#subscription): the trial ends in 3 days (no card
 * yet), it ended without one, a renewal failed, the account was put on hold, the hold was lifted
 * (sites stay paused), the plan changed, a change was booked for the next renewal or the booking
 * dropped, a cancellation was confirmed or undone. Each effect happens once per recorded change, so
 * each mail is sent once.
 */
export function billingMails(record: BillingRecord, effects: readonly BillingEffect[]): BillingMail[] {
  const mails: BillingMail[] = [];
  const mail = (kind: BillingMailKind, date: Date | null, plan: number = record.current.plan) =>
    mails.push({ kind, date, plan });
  if (effects.includes('trial_ending') && !record.card) mail('trial_ending', record.suspendAt);
  if (effects.includes('trial_ended_without_card')) mail('trial_ended_no_card', null);
  if (effects.includes('renewal_failed')) mail('payment_failed', record.suspendAt);
  const heldUnpaid =
    effects.includes('monitoring_stopped') &&
    !effects.includes('ended') &&
    record.providerStatus !== 'paused';
  if (heldUnpaid) mail('account_held', null);
  // Lifted by a payment: the subscription is active again. The trial sweeper's hold read back as a
  // trial the provider has not paused yet lifts nothing the user did, so it tells nothing.
  const liftedByPayment =
    effects.includes('monitoring_may_resume') &&
    !effects.includes('subscribed_again') &&
    record.status === SubscriptionStatus.active;
  if (liftedByPayment) mail('hold_lifted', null);
  if (effects.includes('plan_changed')) mail('plan_changed', null);
  if (effects.includes('plan_change_booked') && record.booked) {
    mail('plan_change_booked', record.periodEnd, record.booked.plan);
  }
  if (effects.includes('booked_change_cancelled')) mail('booked_change_cancelled', null);
  if (effects.includes('cancellation_confirmed')) mail('cancellation_confirmed', record.periodEnd);
  if (effects.includes('cancellation_undone')) mail('cancellation_undone', record.periodEnd);
  if (effects.includes('subscribed_again')) mail('subscribed_again', record.periodEnd);
  return mails;
}

function samePlan(a: PlanChoice, b: PlanChoice): boolean {
  return a.plan === b.plan && a.cycle === b.cycle && a.options.join() === b.options.join();
}

export class BillingRefused extends Error {
  constructor(
    readonly reason:
      | 'renew_first'
      | 'not_cancelling'
      | 'period_over'
      | 'no_card'
      | 'nothing_to_pay'
      | 'nothing_booked'
      | 'plan_not_sold'
      | 'live_mode'
      | 'card_declined',
  ) {
    super(reason);
  }
}

/**
 * Plan change and cancel need a subscription in good standing: the spec asks for renewal first when a
 * payment failed (6) or the account is on hold (7), and Stripe refuses them on a paused subscription.
 */
export function assertInGoodStanding(record: BillingRecord): void {
  const statusOk = record.status === SubscriptionStatus.trial || record.status === SubscriptionStatus.active;
  const providerOk = record.providerStatus === 'trialing' || record.providerStatus === 'active';
  if (!statusOk || !providerOk) throw new BillingRefused('renew_first');
}

/**
 * Subscribing again (docs/product.md#subscription): only once the last subscription ended (9), and
 * with a card on file, which pays the first period at once.
 */
export function assertCanSubscribeAgain(record: BillingRecord): void {
  const ended = record.providerStatus === 'canceled' || record.providerStatus === 'incomplete_expired';
  if (record.status !== SubscriptionStatus.cancelled || !ended) throw new BillingRefused('renew_first');
  if (!record.card) throw new BillingRefused('no_card');
}

/** Subscribing again starts a fresh subscription: nothing booked, nothing being cancelled. */
export function subscribedAgain(record: BillingRecord, subscriptionId: string): BillingRecord {
  return { ...record, subscriptionId, booked: null, cancelAtPeriodEnd: false };
}

export type PlanChangeTiming = 'now' | 'renewal';

/** During the trial (before the subscription starts) a change applies at once, whatever was asked. */
export function planChangeTiming(record: BillingRecord, asked: PlanChangeTiming): PlanChangeTiming {
  assertInGoodStanding(record);
  return record.status === SubscriptionStatus.trial ? 'now' : asked;
}

/**
 * A smaller plan is allowed below current usage: nothing is deleted or paused by the change. What
 * monitors beyond the new limits shows as `limit / limit (actual)`, and a paused site resumes only
 * into a free slot (docs/product.md#quotas). This names the features that will be over, for the
 * plan-change screen's warning.
 */
export function overAfterChange(newLimits: Quota, used: Quota): QuotaKey[] {
  return QUOTA_KEYS.filter((key) => used[key] > newLimits[key]);
}

/** Cancelling keeps the service to the period's end; only an account in good standing may. */
export function cancelAtPeriodEnd(record: BillingRecord): BillingRecord {
  assertInGoodStanding(record);
  return { ...record, cancelAtPeriodEnd: true };
}

/** Undo is possible until the period ends. */
export function undoCancel(record: BillingRecord, now: Date): BillingRecord {
  if (!record.cancelAtPeriodEnd) throw new BillingRefused('not_cancelling');
  if (record.periodEnd && record.periodEnd <= now) throw new BillingRefused('period_over');
  return { ...record, cancelAtPeriodEnd: false };
}

/**
 * What a new card should do: resume a subscription paused after its trial, or pay what is open when a
 * renewal failed or the account is on hold. Nothing more in good standing.
 */
export function afterNewCard(record: BillingRecord): 'resume' | 'pay_open_invoices' | 'nothing' {
  if (record.providerStatus === 'paused') return 'resume';
  if (record.status === SubscriptionStatus.renewalFailed || record.status === SubscriptionStatus.onHold) {
    return 'pay_open_invoices';
  }
  return 'nothing';
}

/** Reprocess ("retry the payment") makes sense only with a card and something unpaid. */
export function assertCanReprocess(record: BillingRecord): void {
  if (!record.card) throw new BillingRefused('no_card');
  if (record.status !== SubscriptionStatus.renewalFailed && record.status !== SubscriptionStatus.onHold) {
    throw new BillingRefused('nothing_to_pay');
  }
}
