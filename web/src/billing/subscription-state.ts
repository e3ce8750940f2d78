import type { Billing } from '../api/billing.ts';
import type { UserInfo } from '../api/user-info.ts';
import { BillingStatus } from './billing-rules.ts';

/** The trial's last days, when a user without a card is warned harder (docs/product.md#subscription). */
export const TRIAL_WARNING_DAYS = 3;
const DAY_MS = 86_400_000;

/**
 * Where an account's subscription stands, in the words every screen uses (docs/product.md#subscription),
 * with the date each state names:
 * - trial: the trial's end; `lastDays` in its last 3 days; `card` whether one is on file;
 * - active: the next renewal; cancelling: the day the service ends (a cancellation is booked);
 * - renewalFailed: the hold deadline (suspend_at); without a card it is the trial that ended;
 * - onHold: a renewal stayed unpaid, a card is on file; trialEnded: the trial ended without a card,
 *   with the delete date; ended: the subscription is over.
 */
export type SubscriptionState =
  | { kind: 'trial'; card: boolean; trialEnd: string | null; lastDays: boolean; daysLeft: number | null }
  | { kind: 'active'; renewsAt: string | null }
  | { kind: 'cancelling'; serviceUntil: string | null }
  | { kind: 'renewalFailed'; card: boolean; suspendAt: string | null }
  | { kind: 'onHold'; deleteAt: string | null }
  | { kind: 'trialEnded'; deleteAt: string | null }
  | { kind: 'ended' };

/** What the state is read from: user_info always, billing's record when it has loaded. */
export interface SubscriptionFacts {
  info: Pick<UserInfo, 'subscription' | 'has_pi'>;
  billing?: Pick<Billing, 'cancel_at_period_end' | 'period_end' | 'suspend_at'> | undefined;
  /** On hold without a card: when the account is cancelled (account screen's delete_at). */
  deleteAt?: string | null | undefined;
  now: Date;
}

export function subscriptionState({
  info,
  billing,
  deleteAt,
  now,
}: SubscriptionFacts): SubscriptionState | null {
  const subscription = info.subscription;
  if (!subscription) return null;
  const card = info.has_pi;
  switch (subscription.status) {
    case BillingStatus.trial: {
      if (billing?.cancel_at_period_end) return { kind: 'cancelling', serviceUntil: billing.period_end };
      // The provider's trial end once billing has loaded: the account page shows that one too.
      const trialEnd = billing?.suspend_at ?? subscription.suspend_at;
      const left = trialEnd ? new Date(trialEnd).getTime() - now.getTime() : null;
      const daysLeft = left === null ? null : Math.max(0, Math.ceil(left / DAY_MS));
      const lastDays = left !== null && left <= TRIAL_WARNING_DAYS * DAY_MS;
      return { kind: 'trial', card, trialEnd, lastDays, daysLeft };
    }
    case BillingStatus.active:
      return billing?.cancel_at_period_end
        ? { kind: 'cancelling', serviceUntil: billing.period_end }
        : { kind: 'active', renewsAt: billing?.period_end ?? null };
    case BillingStatus.renewalFailed:
      return { kind: 'renewalFailed', card, suspendAt: subscription.suspend_at };
    case BillingStatus.onHold: {
      // user_info's suspend_at names the delete date while on hold.
      const date = deleteAt ?? subscription.suspend_at;
      return card ? { kind: 'onHold', deleteAt: date } : { kind: 'trialEnded', deleteAt: date };
    }
    case BillingStatus.ended:
      return { kind: 'ended' };
    default:
      return null;
  }
}

/** Monitoring has stopped for the whole account: nothing resumes and nothing new starts. */
export function monitoringStopped(state: SubscriptionState | null): boolean {
  return state?.kind === 'onHold' || state?.kind === 'trialEnded' || state?.kind === 'ended';
}

/**
 * Why the plan cannot be changed or cancelled here, or null when it can: a card is needed after a
 * trial, a failed payment must go through first, or the subscription is over.
 */
export function planLockReason(
  state: SubscriptionState | null,
): 'registerCardFirst' | 'renewFirst' | 'endedNoChange' | null {
  switch (state?.kind) {
    case 'trialEnded':
      return 'registerCardFirst';
    case 'renewalFailed':
      return state.card ? 'renewFirst' : 'registerCardFirst';
    case 'onHold':
      return 'renewFirst';
    case 'ended':
      return 'endedNoChange';
    default:
      return null;
  }
}
