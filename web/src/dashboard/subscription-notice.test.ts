import { describe, expect, it } from 'vitest';
import type { Subscription } from '../api/user-info.ts';
import { subscriptionNotice } from './subscription-notice.ts';

function subscription(status: number, suspendAt: string | null = null): Subscription {
  return { price: 980, status, suspend_at: suspendAt, s_info: null };
}

describe('subscriptionNotice', () => {
  it('tells a card holder whose renewal failed the suspension deadline', () => {
    expect(
      subscriptionNotice({ subscription: subscription(6, '2026-12-01T00:00:00.000Z'), has_pi: true }),
    ).toEqual({ kind: 'renewalFailed', suspendAt: '2026-12-01T00:00:00.000Z' });
  });

  it('tells a user without a card that the trial ended and a card is needed', () => {
    expect(subscriptionNotice({ subscription: subscription(6), has_pi: false })).toEqual({
      kind: 'trialEndedCardNeeded',
    });
  });

  it('tells a held card holder that all monitoring stopped, and a held trial user that the trial ended', () => {
    expect(subscriptionNotice({ subscription: subscription(7), has_pi: true })).toEqual({ kind: 'onHold' });
    expect(subscriptionNotice({ subscription: subscription(7), has_pi: false })).toEqual({
      kind: 'trialEndedStopped',
    });
  });

  it('says nothing during a trial, an active subscription or without one', () => {
    for (const status of [1, 2, 9]) {
      expect(subscriptionNotice({ subscription: subscription(status), has_pi: true })).toBeNull();
      expect(subscriptionNotice({ subscription: subscription(status), has_pi: false })).toBeNull();
    }
    expect(subscriptionNotice({ subscription: null, has_pi: false })).toBeNull();
  });
});
