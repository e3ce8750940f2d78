import { describe, expect, it } from 'vitest';
import { planQuota } from './plan-quota.ts';
import { NO_QUOTA } from './quota.ts';
import {
  fastestSlotWithRoom,
  hasFreeSlot,
  INTERVAL_SLOTS,
  slotRoom,
  usageTable,
  usedQuota,
} from './usage.ts';

const limits = { ...NO_QUOTA, _60min: 5, _10min: 3, _1min: 2 };

describe('usedQuota (spill-over)', () => {
  it('counts sites within each quota as they are', () => {
    expect(usedQuota(limits, { ...NO_QUOTA, _60min: 4, _10min: 2, _1min: 1 })).toMatchObject({
      _60min: 4,
      _10min: 2,
      _1min: 1,
    });
  });

  it('spills excess 1-hour sites into the 10-minute count, and excess there into the 1-minute count', () => {
    expect(usedQuota(limits, { ...NO_QUOTA, _60min: 7, _10min: 2, _1min: 0 })).toMatchObject({
      _60min: 5,
      _10min: 3,
      _1min: 1,
    });
  });

  it('reports the actual 1-minute count beyond its limit', () => {
    expect(usedQuota(limits, { ...NO_QUOTA, _60min: 9, _10min: 3, _1min: 2 })._1min).toBe(6);
  });

  it('passes feature counts through', () => {
    expect(usedQuota(limits, { ...NO_QUOTA, ss: 2, mail: 1, random_ip: 3, line_notify: 4 })).toMatchObject({
      ss: 2,
      mail: 1,
      random_ip: 3,
      line_notify: 4,
    });
  });
});

describe('usageTable', () => {
  it("shows 'used / limit', and 'limit / limit (actual)' when over", () => {
    const used = usedQuota(limits, { ...NO_QUOTA, _60min: 9, _10min: 3, _1min: 2, ss: 1 });
    const cells = Object.fromEntries(usageTable(limits, used).map((cell) => [cell.key, cell]));
    expect(cells._60min?.text).toBe('5 / 5');
    expect(cells._1min).toMatchObject({ over: true, text: '2 / 2 (6)' });
    expect(cells.ss).toMatchObject({ over: true, text: '0 / 0 (1)' });
    expect(cells.mail).toMatchObject({ over: false, text: '0 / 0' });
  });
});

describe('hasFreeSlot', () => {
  it('lets a slower site use a free faster slot, and refuses when every slot is taken', () => {
    const plan = planQuota(3);
    expect(hasFreeSlot(plan, { ...NO_QUOTA, _60min: 4 }, '_60min')).toBe(true);
    expect(hasFreeSlot(plan, { ...NO_QUOTA, _60min: 5 }, '_60min')).toBe(false);
    expect(hasFreeSlot(plan, { ...NO_QUOTA, _10min: 4 }, '_1min')).toBe(false);
    expect(hasFreeSlot(planQuota(4), { ...NO_QUOTA, _10min: 4 }, '_1min')).toBe(true);
  });
});

describe('slotRoom (spill-over room)', () => {
  const fiveFast = { ...NO_QUOTA, _1min: 5 };

  it('gives a plan of only 1-minute slots the same room at every interval', () => {
    expect(slotRoom(fiveFast, NO_QUOTA)).toEqual({ _60min: 5, _10min: 5, _1min: 5 });
  });

  it('adds the free faster slots to a slower interval, after the spill of targets in use', () => {
    // 7 hourly targets fill the 5 hourly slots and 2 of the 3 ten-minute slots.
    expect(slotRoom(limits, { ...NO_QUOTA, _60min: 7 })).toEqual({ _60min: 3, _10min: 3, _1min: 2 });
  });

  it('has no room anywhere once the 1-minute count is over its limit', () => {
    expect(slotRoom(limits, { ...NO_QUOTA, _60min: 9, _10min: 3, _1min: 2 })).toEqual({
      _60min: 0,
      _10min: 0,
      _1min: 0,
    });
  });

  it('agrees with hasFreeSlot', () => {
    const demand = { ...NO_QUOTA, _60min: 5, _10min: 3, _1min: 1 };
    const room = slotRoom(limits, demand);
    for (const slot of INTERVAL_SLOTS) expect(room[slot] > 0).toBe(hasFreeSlot(limits, demand, slot));
  });
});

describe('fastestSlotWithRoom', () => {
  it('picks the 1-minute slot only when one is free', () => {
    expect(fastestSlotWithRoom(planQuota(4), NO_QUOTA)).toBe('_1min');
    expect(fastestSlotWithRoom(planQuota(3), NO_QUOTA)).toBe('_10min');
    expect(fastestSlotWithRoom({ ...NO_QUOTA, _60min: 5, _10min: 1 }, { ...NO_QUOTA, _10min: 1 })).toBe(
      '_60min',
    );
  });

  it('is undefined when no slot is free', () => {
    expect(fastestSlotWithRoom(NO_QUOTA, NO_QUOTA)).toBeUndefined();
  });
});
