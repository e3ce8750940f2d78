import { describe, expect, it } from 'vitest';
import type { Subscription } from '../api/user-info.ts';
import { monitoringStopped, planLockReason, subscriptionState } from './subscription-state.ts';

const NOW = new Date('2026-12-01T00:00:00.000Z');
const at = (days: number) => new Date(NOW.getTime() + days * 86_400_000).toISOString();

function info(status: number, suspendAt: string | null = null, card = false) {
  const subscription: Subscription = { price: 980, status, suspend_at: suspendAt, s_info: null };
  return { subscription, has_pi: card };
}

describe('subscriptionState', () => {
  it('names the trial’s end, and its last 3 days, with or without a card', () => {
    expect(subscriptionState({ info: info(1, at(10)), now: NOW })).toEqual({
      kind: 'trial',
      card: false,
      trialEnd: at(10),
      lastDays: false,
      daysLeft: 10,
    });
    expect(subscriptionState({ info: info(1, at(2.5)), now: NOW })).toMatchObject({
      lastDays: true,
      daysLeft: 3,
    });
    expect(subscriptionState({ info: info(1, at(3)), now: NOW })).toMatchObject({ lastDays: true });
    expect(subscriptionState({ info: info(1, at(3.01), true), now: NOW })).toMatchObject({
      card: true,
      lastDays: false,
    });
    // Billing's record, once loaded, names the provider's trial end, as the account page does.
    const billing = { cancel_at_period_end: false, period_end: at(10.001), suspend_at: at(10.001) };
    expect(subscriptionState({ info: info(1, at(10)), billing, now: NOW })).toMatchObject({
      trialEnd: at(10.001),
    });
  });

  it('reads a booked cancellation from billing, with the day the service ends', () => {
    const billing = { cancel_at_period_end: true, period_end: at(20), suspend_at: null };
    expect(subscriptionState({ info: info(2, null, true), billing, now: NOW })).toEqual({
      kind: 'cancelling',
      serviceUntil: at(20),
    });
    expect(subscriptionState({ info: info(1, at(5), true), billing, now: NOW })).toEqual({
      kind: 'cancelling',
      serviceUntil: at(20),
    });
    expect(
      subscriptionState({
        info: info(2, null, true),
        billing: { cancel_at_period_end: false, period_end: at(20), suspend_at: null },
        now: NOW,
      }),
    ).toEqual({ kind: 'active', renewsAt: at(20) });
  });

  it('tells a failed renewal’s deadline, a hold with a card, and a trial that ended without one with its delete date', () => {
    expect(subscriptionState({ info: info(6, at(7), true), now: NOW })).toEqual({
      kind: 'renewalFailed',
      card: true,
      suspendAt: at(7),
    });
    expect(subscriptionState({ info: info(7, null, true), now: NOW })).toEqual({
      kind: 'onHold',
      deleteAt: null,
    });
    expect(subscriptionState({ info: info(7, at(30)), now: NOW })).toEqual({
      kind: 'trialEnded',
      deleteAt: at(30),
    });
    expect(subscriptionState({ info: info(7, null), deleteAt: at(29), now: NOW })).toEqual({
      kind: 'trialEnded',
      deleteAt: at(29),
    });
    expect(subscriptionState({ info: info(9), now: NOW })).toEqual({ kind: 'ended' });
    expect(subscriptionState({ info: { subscription: null, has_pi: false }, now: NOW })).toBeNull();
  });

  it('says monitoring stopped only on hold or after the end, and why the plan is locked', () => {
    const states = [
      [info(1, at(5)), false, null],
      [info(2, null, true), false, null],
      [info(6, at(7), true), false, 'renewFirst'],
      [info(6, at(7)), false, 'registerCardFirst'],
      [info(7, null, true), true, 'renewFirst'],
      [info(7, at(30)), true, 'registerCardFirst'],
      [info(9), true, 'endedNoChange'],
    ] as const;
    for (const [facts, stopped, lock] of states) {
      const state = subscriptionState({ info: facts, now: NOW });
      expect([monitoringStopped(state), planLockReason(state)], JSON.stringify(facts)).toEqual([
        stopped,
        lock,
      ]);
    }
  });
});
