import { NO_QUOTA, type Quota } from '@mimamori/plans';
import { describe, expect, it } from 'vitest';
import {
  accountDefaults,
  chosenWith,
  defaultIntervalMinutes,
  intervalBucket,
  newTargetFits,
} from './plan-room.ts';

const quota = (values: Partial<Quota>): Quota => ({ ...NO_QUOTA, ...values });
const site = { intervalMinutes: 60, screenshot: false, proxy: false, chat: false };

describe('room for a new site', () => {
  it('counts an interval against its bucket', () => {
    expect([60, 120, 59, 10, 9, 1].map(intervalBucket)).toEqual([
      '_60min',
      '_60min',
      '_10min',
      '_10min',
      '_1min',
      '_1min',
    ]);
  });

  it('fits while the bucket, or a faster one, has a free slot', () => {
    const basic5 = quota({ _10min: 5, ss: 5 });
    expect(newTargetFits(basic5, quota({ _10min: 4 }), site)).toBe(true);
    expect(newTargetFits(basic5, quota({ _10min: 5 }), site)).toBe(false);
    expect(newTargetFits(basic5, NO_QUOTA, { ...site, intervalMinutes: 1 })).toBe(false);
  });

  it('needs room for each feature the site uses', () => {
    const limits = quota({ _60min: 5, ss: 1, random_ip: 0, line_notify: 1 });
    expect(newTargetFits(limits, quota({ ss: 1 }), { ...site, screenshot: true })).toBe(false);
    expect(newTargetFits(limits, NO_QUOTA, { ...site, screenshot: true, chat: true })).toBe(true);
    expect(newTargetFits(limits, NO_QUOTA, { ...site, proxy: true })).toBe(false);
  });
});

describe('what a new site takes from the account (docs/product.md#wizard)', () => {
  const basic5 = { num: quota({ _10min: 5, ss: 5 }), used_num: NO_QUOTA };

  it('the fastest free interval and screenshots while the plan has room', () => {
    expect(accountDefaults({ chatNotify: 'none', chosen: [] }, basic5, false)).toEqual({
      defaultsApplied: true,
      interval: '10',
      screenshot: true,
    });
    const noPictures = { num: quota({ _10min: 5, ss: 1 }), used_num: quota({ ss: 1 }) };
    expect(accountDefaults({ chatNotify: 'none', chosen: [] }, noPictures, false)).toEqual({
      defaultsApplied: true,
      interval: '10',
    });
  });

  it('keeps what the person set before the account was known', () => {
    // On a slow connection the person may pick an interval before the account has loaded.
    let chosen = chosenWith({ chosen: [], defaultsApplied: false }, 'interval');
    chosen = chosenWith({ chosen, defaultsApplied: false }, 'label');
    chosen = chosenWith({ chosen, defaultsApplied: false }, 'interval');
    expect(chosen).toEqual(['interval']);
    expect(accountDefaults({ chatNotify: 'none', chosen }, basic5, true)).toEqual({
      defaultsApplied: true,
      screenshot: true,
      chatNotify: 'account',
    });
    const all = chosenWith({ chosen: ['interval', 'screenshot'], defaultsApplied: false }, 'chatNotify');
    expect(accountDefaults({ chatNotify: 'none', chosen: all }, basic5, true)).toEqual({
      defaultsApplied: true,
    });
    // Once applied, later choices need no record.
    expect(chosenWith({ chosen: [], defaultsApplied: true }, 'interval')).toEqual([]);
  });

  it('chat on when a chat is linked for every site, and never turned off', () => {
    expect(accountDefaults({ chatNotify: 'none', chosen: [] }, basic5, true).chatNotify).toBe('account');
    expect(accountDefaults({ chatNotify: 'site', chosen: [] }, basic5, true).chatNotify).toBeUndefined();
    expect(accountDefaults({ chatNotify: 'none', chosen: [] }, basic5, false).chatNotify).toBeUndefined();
  });
});

describe('default interval of a new site (docs/product.md#wizard)', () => {
  it('is the fastest interval the plan has room for', () => {
    // Advanced's 1-minute slots: 1 minute, not the hourly the wizard once offered.
    expect(defaultIntervalMinutes(quota({ _1min: 5 }), NO_QUOTA)).toBe(1);
    // Basic 5, the plan sign-up offers by default: 10-minute slots, no 1-minute one.
    expect(defaultIntervalMinutes(quota({ _10min: 5 }), NO_QUOTA)).toBe(10);
    expect(defaultIntervalMinutes(quota({ _60min: 5, _10min: 1 }), quota({ _10min: 1 }))).toBe(60);
  });

  it('stays hourly when the plan is full, as the save will be paused anyway', () => {
    expect(defaultIntervalMinutes(quota({ _1min: 5 }), quota({ _1min: 5 }))).toBe(60);
    expect(defaultIntervalMinutes(quota({ _10min: 5 }), quota({ _10min: 5 }))).toBe(60);
  });
});
