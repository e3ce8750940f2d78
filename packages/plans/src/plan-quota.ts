import { customPlanQuota } from './custom-plan.ts';
import { PLANS, type PlanId } from './plan-catalog.ts';
import type { Quota } from './quota.ts';

/** The limits (`num` of user_info) of a plan with its options. */
export function planQuota(plan: PlanId, options: readonly string[] = []): Quota {
  return plan === 2 ? customPlanQuota(options) : { ...PLANS[plan].quota };
}
