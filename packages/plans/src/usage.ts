import { QUOTA_KEYS, type Quota, type QuotaKey } from './quota.ts';

/** What the user's active sites ask for: sites per chosen interval plus feature counts. */
export type TargetDemand = Quota;

/**
 * `used_num` of user_info (docs/product.md#quotas): sites beyond the 1-hour quota run in free
 * 10-minute slots (a faster slot serves a slower site), and sites beyond that in 1-minute
 * slots; the 1-minute count is what is left over, so it may exceed its limit.
 */
export function usedQuota(limits: Quota, demand: TargetDemand): Quota {
  const used60 = Math.min(demand._60min, limits._60min);
  const need10 = demand._10min + (demand._60min - used60);
  const used10 = Math.min(need10, limits._10min);
  const need1 = demand._1min + (need10 - used10);
  return {
    _60min: used60,
    _10min: used10,
    _1min: need1,
    random_ip: demand.random_ip,
    ss: demand.ss,
    mail: demand.mail,
    line_notify: demand.line_notify,
  };
}

export interface UsageCell {
  key: QuotaKey;
  used: number;
  limit: number;
  over: boolean;
  /** `used / limit`, or `limit / limit (actual)` when over the quota (docs/product.md#quotas). */
  text: string;
}

export function usageTable(limits: Quota, used: Quota): UsageCell[] {
  return QUOTA_KEYS.map((key) => {
    const over = used[key] > limits[key];
    return {
      key,
      used: used[key],
      limit: limits[key],
      over,
      text: over ? `${limits[key]} / ${limits[key]} (${used[key]})` : `${used[key]} / ${limits[key]}`,
    };
  });
}

/** Whether one more site at this interval fits (resume and registration check this). */
export function hasFreeSlot(
  limits: Quota,
  demand: TargetDemand,
  interval: '_60min' | '_10min' | '_1min',
): boolean {
  const next = { ...demand, [interval]: demand[interval] + 1 };
  const used = usedQuota(limits, next);
  return used._1min <= limits._1min;
}

export type IntervalSlot = '_60min' | '_10min' | '_1min';

/** The slots from the slowest to the fastest: the order a new target looks for room in. */
export const INTERVAL_SLOTS: readonly IntervalSlot[] = ['_60min', '_10min', '_1min'];

/**
 * How many more targets at each interval fit, with the spill-over of docs/product.md#quotas: a
 * free 1-minute slot can also hold a 10-minute or hourly target, so an hourly target's room is
 * every free slot. A plan with only 1-minute slots therefore has hourly room too.
 */
export function slotRoom(limits: Quota, demand: TargetDemand): Record<IntervalSlot, number> {
  const used = usedQuota(limits, demand);
  const free1 = Math.max(0, limits._1min - used._1min);
  const free10 = Math.max(0, limits._10min - used._10min) + free1;
  const free60 = Math.max(0, limits._60min - used._60min) + free10;
  return { _60min: free60, _10min: free10, _1min: free1 };
}

/** The fastest interval with room for one more target, or none when every slot is taken. */
export function fastestSlotWithRoom(limits: Quota, demand: TargetDemand): IntervalSlot | undefined {
  const room = slotRoom(limits, demand);
  return [...INTERVAL_SLOTS].reverse().find((slot) => room[slot] > 0);
}
