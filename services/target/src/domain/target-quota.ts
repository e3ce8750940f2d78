import { hasFreeSlot, NO_QUOTA, type Quota } from '@mimamori/plans';

/** The caller's plan limits and whether the account is on hold, as the gateway resolved them. */
export interface Caller {
  userId: string;
  limits: Quota;
  held: boolean;
  /** The account's language and time zone ('' when unknown), which checks present to the site. */
  reader?: ReaderLocale;
  /** The plan's history limits, when the gateway knew them; saving a site keeps them with it. */
  history?: SiteHistoryLimits;
}

/** How much history the diff service keeps for a site (docs/product.md#history); 0 and 0 keep all. */
export interface SiteHistoryLimits {
  updates: number;
  checkDays: number;
}

export const KEEP_ALL_HISTORY: SiteHistoryLimits = { updates: 0, checkDays: 0 };

/** The language and time zone a site's checks present to it, as the person's browser would. */
export interface ReaderLocale {
  lang: string;
  timeZone: string;
}

/** A caller without a language or time zone: checks use the crawler's defaults. */
export const NO_READER: ReaderLocale = { lang: '', timeZone: '' };

/** What one active site takes from the plan. */
export interface TargetNeed {
  intervalMinutes: number;
  useProxy: boolean;
  screenshot: boolean;
  chatNotify: boolean;
}

/** The quota bucket a check interval needs: a site checked every 30 minutes needs a 10-minute slot. */
export function intervalBucket(intervalMinutes: number): '_60min' | '_10min' | '_1min' {
  if (intervalMinutes >= 60) return '_60min';
  if (intervalMinutes >= 10) return '_10min';
  return '_1min';
}

/** What the user's active sites ask of the plan (user_info `used_num` before spill-over). */
export function demandOf(sites: readonly TargetNeed[]): Quota {
  const demand = { ...NO_QUOTA };
  for (const site of sites) {
    demand[intervalBucket(site.intervalMinutes)] += 1;
    if (site.useProxy) demand.random_ip += 1;
    if (site.screenshot) demand.ss += 1;
    if (site.chatNotify) demand.line_notify += 1;
  }
  return demand;
}

/**
 * Whether one more active site fits beside the others (docs/product.md#quotas): a free slot at its
 * interval or a faster one (spill-over), and room for each feature it uses. Nothing fits while
 * the account is on hold.
 */
export function targetFits(caller: Caller, others: readonly TargetNeed[], site: TargetNeed): boolean {
  return fitsDemand(caller, demandOf(others), site);
}

/** targetFits with the others' demand already summed (the site list checks every paused row). */
export function fitsDemand(caller: Caller, demand: Quota, site: TargetNeed): boolean {
  if (caller.held) return false;
  const { limits } = caller;
  if (!hasFreeSlot(limits, demand, intervalBucket(site.intervalMinutes))) return false;
  if (site.useProxy && demand.random_ip + 1 > limits.random_ip) return false;
  if (site.screenshot && demand.ss + 1 > limits.ss) return false;
  if (site.chatNotify && demand.line_notify + 1 > limits.line_notify) return false;
  return true;
}

/**
 * Sites a user may keep, monitoring or paused: above the largest plan (Project, 1000 or more)
 * with room, so paused sites beyond the quota cannot grow without end.
 */
export const MAX_TARGETS_PER_USER = 5_000;
