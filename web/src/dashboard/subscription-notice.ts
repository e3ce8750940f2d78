import type { UserInfo } from '../api/user-info.ts';

/** docs/product.md#subscription: the subscription states the dashboard warns about. */
const RENEWAL_FAILED = 6;
const ON_HOLD = 7;

/**
 * Which warning the dashboard shows. A user with a card on file (has_pi) whose renewal failed or
 * who is on hold sees the payment problem; one without a card had only the trial, which ended.
 */
export type SubscriptionNotice =
  | { kind: 'renewalFailed'; suspendAt: string | null }
  | { kind: 'trialEndedCardNeeded' }
  | { kind: 'onHold' }
  | { kind: 'trialEndedStopped' };

export function subscriptionNotice(
  info: Pick<UserInfo, 'subscription' | 'has_pi'>,
): SubscriptionNotice | null {
  const status = info.subscription?.status;
  if (status === RENEWAL_FAILED) {
    return info.has_pi
      ? { kind: 'renewalFailed', suspendAt: info.subscription?.suspend_at ?? null }
      : { kind: 'trialEndedCardNeeded' };
  }
  if (status === ON_HOLD) return info.has_pi ? { kind: 'onHold' } : { kind: 'trialEndedStopped' };
  return null;
}
