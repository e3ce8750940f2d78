import { NO_QUOTA, type Quota } from './quota.ts';

/** Plan ids (docs/product.md#plans); 0 and 1 have no name and no quota. */
export type PlanId = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11;
export type Cycle = 'month' | 'year';

export const CYCLE_DAYS: Record<Cycle, number> = { month: 30, year: 365 };

/** The languages the product names its plans in. */
export type PlanLanguage = 'ja' | 'en';

/** The key of each named plan: the SPA's catalogue key is `plans.<key>`. */
export type PlanNameKey =
  | 'custom'
  | 'basic5'
  | 'basic5_1min'
  | 'basic25'
  | 'basic25_1min_5'
  | 'basic25_1min_10'
  | 'basic25_1min_15'
  | 'basic25_1min_20'
  | 'basic25_1min_25'
  | 'advanced';

/**
 * Each plan's name in the product's two languages, the one source of plan names: the SPA's
 * catalogue takes them as its `plans.<key>` texts, the mails and the provider's products read them
 * here (planName), so a screen and a mail never name a plan two ways.
 */
export const PLAN_NAMES: Record<PlanLanguage, Record<PlanNameKey, string>> = {
  ja: {
    custom: 'カスタム',
    basic5: 'ベーシック5',
    basic5_1min: 'ベーシック5 (1分間隔)',
    basic25: 'ベーシック25',
    basic25_1min_5: 'ベーシック25 (1分間隔 5サイト)',
    basic25_1min_10: 'ベーシック25 (1分間隔 10サイト)',
    basic25_1min_15: 'ベーシック25 (1分間隔 15サイト)',
    basic25_1min_20: 'ベーシック25 (1分間隔 20サイト)',
    basic25_1min_25: 'ベーシック25 (1分間隔 25サイト)',
    advanced: 'アドバンスト',
  },
  en: {
    custom: 'Custom',
    basic5: 'Basic 5',
    basic5_1min: 'Basic 5 (1-minute interval)',
    basic25: 'Basic 25',
    basic25_1min_5: 'Basic 25 (1-minute interval for 5 sites)',
    basic25_1min_10: 'Basic 25 (1-minute interval for 10 sites)',
    basic25_1min_15: 'Basic 25 (1-minute interval for 15 sites)',
    basic25_1min_20: 'Basic 25 (1-minute interval for 20 sites)',
    basic25_1min_25: 'Basic 25 (1-minute interval for 25 sites)',
    advanced: 'Advanced',
  },
};

export interface Plan {
  id: PlanId;
  /** Catalogue key of the plan's name in the SPA (`plans.basic5`, from PLAN_NAMES); empty for 0 and 1. */
  nameKey: `plans.${PlanNameKey}` | '';
  /** Total sites the plan covers. */
  sites: number;
  /** Fixed limits; the custom plan (2) derives its limits from its options instead. */
  quota: Quota;
}

function basic(sites: number, oneMinuteSites: number): Quota {
  return {
    _60min: 0,
    _10min: sites - oneMinuteSites,
    _1min: oneMinuteSites,
    random_ip: 0,
    ss: sites,
    mail: 3,
    line_notify: sites,
  };
}

const CUSTOM_BASE_SITES = 5;

/**
 * The catalogue. docs/product.md#plans gives the target counts; the per-interval split follows the plan
 * names (a "1-minute" plan moves that many sites from the 10-minute to the 1-minute slot).
 */
export const PLANS: Record<PlanId, Plan> = {
  0: { id: 0, nameKey: '', sites: 0, quota: NO_QUOTA },
  1: { id: 1, nameKey: '', sites: 0, quota: NO_QUOTA },
  2: {
    id: 2,
    nameKey: 'plans.custom',
    sites: CUSTOM_BASE_SITES,
    quota: { ...NO_QUOTA, _60min: CUSTOM_BASE_SITES, mail: 0 },
  },
  3: { id: 3, nameKey: 'plans.basic5', sites: 5, quota: basic(5, 0) },
  4: { id: 4, nameKey: 'plans.basic5_1min', sites: 5, quota: basic(5, 5) },
  5: { id: 5, nameKey: 'plans.basic25', sites: 25, quota: basic(25, 0) },
  6: { id: 6, nameKey: 'plans.basic25_1min_5', sites: 25, quota: basic(25, 5) },
  7: { id: 7, nameKey: 'plans.basic25_1min_10', sites: 25, quota: basic(25, 10) },
  8: { id: 8, nameKey: 'plans.basic25_1min_15', sites: 25, quota: basic(25, 15) },
  9: { id: 9, nameKey: 'plans.basic25_1min_20', sites: 25, quota: basic(25, 20) },
  10: { id: 10, nameKey: 'plans.basic25_1min_25', sites: 25, quota: basic(25, 25) },
  11: {
    id: 11,
    nameKey: 'plans.advanced',
    sites: 100,
    quota: { _60min: 0, _10min: 50, _1min: 50, random_ip: 100, ss: 100, mail: 10, line_notify: 100 },
  },
};

export function isPlanId(value: number): value is PlanId {
  return Number.isInteger(value) && value >= 0 && value <= 11;
}

export function isCycle(value: string): value is Cycle {
  return value === 'month' || value === 'year';
}

/** How much history each target keeps (docs/product.md#history): its newest updates and its checks' days. */
export interface HistoryLimits {
  updates: number;
  checkDays: number;
}

const SMALL_HISTORY: HistoryLimits = { updates: 100, checkDays: 30 };
const MEDIUM_HISTORY: HistoryLimits = { updates: 300, checkDays: 90 };
const LARGE_HISTORY: HistoryLimits = { updates: 1_000, checkDays: 365 };

/**
 * Per plan; an account without a plan (0, 1: trial ended, cancelled) keeps the smallest, so
 * choosing a plan again finds what the limits allowed.
 */
export const HISTORY_LIMITS: Record<PlanId, HistoryLimits> = {
  0: SMALL_HISTORY,
  1: SMALL_HISTORY,
  2: SMALL_HISTORY,
  3: SMALL_HISTORY,
  4: SMALL_HISTORY,
  5: MEDIUM_HISTORY,
  6: MEDIUM_HISTORY,
  7: MEDIUM_HISTORY,
  8: MEDIUM_HISTORY,
  9: MEDIUM_HISTORY,
  10: MEDIUM_HISTORY,
  11: LARGE_HISTORY,
};

export function historyLimits(plan: number): HistoryLimits {
  return isPlanId(plan) ? HISTORY_LIMITS[plan] : SMALL_HISTORY;
}

/** A plan's name in the reader's language (PLAN_NAMES); empty for 0, 1 and ids outside the catalogue. */
export function planName(plan: number, lang: PlanLanguage): string {
  const nameKey = isPlanId(plan) ? PLANS[plan].nameKey : '';
  return nameKey ? PLAN_NAMES[lang][nameKey.slice('plans.'.length) as PlanNameKey] : '';
}

/**
 * How many days a workspace's audit log keeps each entry (docs/product.md#audit-log), by the same
 * three sizes as the history: a bigger plan is bought by bigger teams, who look further back.
 */
const AUDIT_RETENTION_DAYS = { small: 90, medium: 180, large: 365 } as const;

export function auditRetentionDays(plan: number): number {
  const limits = historyLimits(plan);
  if (limits === LARGE_HISTORY) return AUDIT_RETENTION_DAYS.large;
  if (limits === MEDIUM_HISTORY) return AUDIT_RETENTION_DAYS.medium;
  return AUDIT_RETENTION_DAYS.small;
}

/**
 * How many people may belong to a workspace on each plan, its owner and pending invitations
 * included (docs/product.md#workspaces). Without a plan only the owner remains: members already
 * there stay, but no one new is invited until a plan is chosen again.
 */
export const MEMBER_LIMITS: Record<PlanId, number> = {
  0: 1,
  1: 1,
  2: 3,
  3: 3,
  4: 3,
  5: 10,
  6: 10,
  7: 10,
  8: 10,
  9: 10,
  10: 10,
  11: 25,
};

export function memberLimit(plan: number): number {
  return isPlanId(plan) ? MEMBER_LIMITS[plan] : 1;
}
