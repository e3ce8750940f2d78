export {
  ADDONS,
  type Addon,
  type AddonPrices,
  addonLookupKey,
  BILLED_PLANS,
  billingCatalogue,
  type CataloguePrice,
  type CatalogueProduct,
  CURRENCIES,
  CYCLES,
  parseAddonPrices,
  planFromLines,
  planLookupKey,
  type SubscriptionLine,
  subscriptionLines,
} from './billing-catalog.ts';
export { CONSUMPTION_TAX_RATE, includedConsumptionTax, linesAmount } from './consumption-tax.ts';
export { type CustomOption, customPlanQuota, InvalidCustomOption } from './custom-plan.ts';
export {
  auditRetentionDays,
  CYCLE_DAYS,
  type Cycle,
  HISTORY_LIMITS,
  type HistoryLimits,
  historyLimits,
  isCycle,
  isPlanId,
  MEMBER_LIMITS,
  memberLimit,
  PLAN_NAMES,
  PLANS,
  type Plan,
  type PlanId,
  type PlanLanguage,
  type PlanNameKey,
  planName,
} from './plan-catalog.ts';
export {
  type Currency,
  cyclePrices,
  formatPrice,
  isCurrency,
  type PlanPrice,
  type PlanPrices,
  parsePlanPrices,
  planPrice,
} from './plan-prices.ts';
export { planQuota } from './plan-quota.ts';
export { NO_QUOTA, QUOTA_KEYS, type Quota, type QuotaKey } from './quota.ts';
export {
  fastestSlotWithRoom,
  hasFreeSlot,
  INTERVAL_SLOTS,
  type IntervalSlot,
  slotRoom,
  type TargetDemand,
  type UsageCell,
  usageTable,
  usedQuota,
} from './usage.ts';
