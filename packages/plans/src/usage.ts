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
