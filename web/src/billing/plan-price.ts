import {
  type Addon,
  addonLookupKey,
  CURRENCIES,
  type Currency,
  CYCLES,
  type Cycle,
  isPlanId,
  planLookupKey,
  subscriptionLines,
} from '@mimamori/plans';
import type { PlanCatalogue, PlanChoice } from '../api/billing.ts';

/**
 * The price of a plan choice as the provider will bill it: the plan's line plus, for the custom plan,
 * each add-on times its quantity. The lines come from the catalogue the billing service uses, so the
 * screen and the invoice add up the same things. Null when a line has no configured price (the plan
 * is not sold) or the add-ons are not ones the catalogue knows.
 */
export function choicePrice(plans: PlanCatalogue, choice: PlanChoice, currency: Currency): number | null {
  if (!isPlanId(choice.plan)) return null;
  const amounts = unitAmounts(plans);
  let lines: ReturnType<typeof subscriptionLines>;
  try {
    lines = subscriptionLines(choice.plan, choice.options, choice.cycle, currency);
  } catch {
    return null;
  }
  let total = 0;
  for (const line of lines) {
    const amount = amounts.get(line.lookupKey);
    if (amount === undefined) return null;
    total += amount * line.quantity;
  }
  return total;
}

/** The price of a catalogue plan without add-ons; null when it is not sold. */
export function planOnlyPrice(
  plans: PlanCatalogue,
  plan: number,
  cycle: Cycle,
  currency: Currency,
): number | null {
  return choicePrice(plans, { plan, cycle, options: [] }, currency);
}

function unitAmounts(plans: PlanCatalogue): Map<string, number> {
  const amounts = new Map<string, number>();
  for (const { plan, prices: cycles } of plans.plans) {
    if (!cycles || !isPlanId(plan)) continue;
    for (const cycle of CYCLES) {
      for (const currency of CURRENCIES) {
        amounts.set(planLookupKey(plan, cycle, currency), cycles[cycle][currency]);
      }
    }
  }
  for (const { addon, prices: cycles } of plans.addons) {
    if (!cycles) continue;
    for (const cycle of CYCLES) {
      for (const currency of CURRENCIES) {
        amounts.set(addonLookupKey(addon as Addon, cycle, currency), cycles[cycle][currency]);
      }
    }
  }
  return amounts;
}

/**
 * The currency a signed-out visitor's prices are shown in: yen for Japanese, dollars otherwise. A
 * signed-in user's currency is the one fixed at signup.
 */
export function visitorCurrency(language: string | undefined): Currency {
  return language?.startsWith('ja') ? 'JPY' : 'USD';
}
