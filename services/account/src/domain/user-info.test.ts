import { describe, expect, it } from 'vitest';
import type { AccountRecord } from './account-record.ts';
import { startTrial } from './trial.ts';
import { toUserInfoView } from './user-info.ts';

const now = new Date('2026-11-23T00:00:00Z');

function account(overrides: Partial<AccountRecord> = {}): AccountRecord {
  return {
    id: 'u-1',
    name: '',
    settingsRevision: 1,
    email: 'a@example.com',
    emailVerified: true,
    lang: 'ja',
    timezone: null,
    currency: 'JPY',
    hasPassword: true,
    xLinked: false,
    deleted: false,
    discordState: 'not_set',
    subscription: startTrial(now),
    mails: [],
    ...overrides,
  };
}

const prices = { 3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } } };

describe('toUserInfoView', () => {
  it('shows a trial of Basic 5 ending in 14 days, priced in the account currency', () => {
    const view = toUserInfoView(account({ currency: 'USD' }), prices);
    expect(view.subscription).toEqual({
      price: 700,
      status: 1,
      suspendAt: new Date('2026-12-07T00:00:00Z'),
      plan: 3,
      cycle: 'month',
      options: [],
    });
    expect(view.num).toMatchObject({ _10min: 5, mail: 3 });
    expect(view.locale).toEqual({ lang: 'ja', timezone: '', currency: 'USD' });
  });

  it('lists verified additional addresses after the sign-in one and counts them as used', () => {
    const view = toUserInfoView(
      account({
        mails: [
          { id: 'm1', index: 0, email: 'b@example.com', verified: true },
          { id: 'm2', index: 1, email: 'c@example.com', verified: false },
        ],
      }),
      prices,
    );
    expect(view.mails).toEqual(['a@example.com', 'b@example.com']);
    expect(view.usedNum.mail).toBe(1);
  });

  it('asks for the chat link while the plan allows it and it is not complete', () => {
    expect(toUserInfoView(account({ discordState: 'not_complete' }), prices)).toMatchObject({
      lineNeedSetting: true,
      lineUrl: '/account',
    });
    expect(toUserInfoView(account({ discordState: 'complete' }), prices)).toMatchObject({
      lineNeedSetting: false,
      lineUrl: '',
    });
  });

  it('gives a held account its delete date as suspend_at, and a cancelled one no quota', () => {
    const held = account({
      subscription: { ...startTrial(now), status: 7, deleteAt: new Date('2027-01-06T00:00:00Z') },
    });
    expect(toUserInfoView(held, prices).subscription?.suspendAt).toEqual(new Date('2027-01-06T00:00:00Z'));
    const cancelled = account({ subscription: { ...startTrial(now), status: 9 } });
    expect(toUserInfoView(cancelled, prices).num._10min).toBe(0);
  });

  it("gives a failed renewal billing's deadline as suspend_at and has_pi from the card on file", () => {
    const failed = account({
      subscription: {
        ...startTrial(now),
        status: 6,
        hasCard: true,
        renewalSuspendAt: new Date('2026-12-30T00:00:00Z'),
      },
    });
    expect(toUserInfoView(failed, prices)).toMatchObject({
      subscription: { status: 6, suspendAt: new Date('2026-12-30T00:00:00Z') },
      hasPi: true,
    });
  });

  it('has no subscription for an account from before trials and no e-mail for an X user', () => {
    const legacy = account({ email: null, subscription: { ...startTrial(now), status: 0 } });
    expect(toUserInfoView(legacy, prices)).toMatchObject({ subscription: null, mails: [] });
  });
});
