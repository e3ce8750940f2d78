import { NO_QUOTA } from '@mimamori/plans';
import { describe, expect, it } from 'vitest';
import { type Caller, intervalBucket, type TargetNeed, targetFits } from './target-quota.ts';

const hourly: TargetNeed = { intervalMinutes: 60, useProxy: false, screenshot: false, chatNotify: false };
const caller = (limits: Partial<typeof NO_QUOTA>, held = false): Caller => ({
  userId: 'u',
  limits: { ...NO_QUOTA, ...limits },
  held,
});

describe('targetFits', () => {
  it('fits while the interval has a free slot and not beyond', () => {
    const plan = caller({ _60min: 2 });
    expect(targetFits(plan, [hourly], hourly)).toBe(true);
    expect(targetFits(plan, [hourly, hourly], hourly)).toBe(false);
  });

  it('lets an hourly site spill into a free 10-minute slot, but not a 1-minute site into slower slots', () => {
    const plan = caller({ _60min: 1, _10min: 1 });
    expect(targetFits(plan, [hourly], hourly)).toBe(true);
    expect(targetFits(plan, [], { ...hourly, intervalMinutes: 1 })).toBe(false);
  });

  it('counts proxy, screenshot and chat notification against their own limits', () => {
    const plan = caller({ _60min: 5, ss: 1 });
    expect(targetFits(plan, [], { ...hourly, screenshot: true })).toBe(true);
    expect(targetFits(plan, [{ ...hourly, screenshot: true }], { ...hourly, screenshot: true })).toBe(false);
    expect(targetFits(plan, [], { ...hourly, useProxy: true })).toBe(false);
    expect(targetFits(plan, [], { ...hourly, chatNotify: true })).toBe(false);
  });

  it('fits nothing while the account is on hold', () => {
    expect(targetFits(caller({ _60min: 5 }, true), [], hourly)).toBe(false);
  });
});

describe('intervalBucket', () => {
  it('maps an interval to the slowest slot that checks it often enough', () => {
    expect([1, 9, 10, 59, 60, 1440].map(intervalBucket)).toEqual([
      '_1min',
      '_1min',
      '_10min',
      '_10min',
      '_60min',
      '_60min',
    ]);
  });
});
