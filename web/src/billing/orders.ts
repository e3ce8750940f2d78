import type { PlanChangePreview } from '@mimamori/http-api';
import type { Currency } from '@mimamori/plans';
import type { Billing, PlanCatalogue, PlanChangeTiming, PlanChoice } from '../api/billing.ts';
import { BillingStatus } from './billing-rules.ts';
import { choicePrice } from './plan-price.ts';

/** What a paid order commits to, as its final confirmation shows it (OrderConfirmation). */
export interface Order {
  choice: PlanChoice;
  currency: Currency;
  /** The plan's price per cycle; null when the catalogue has none (the screen says "—"). */
  price: number | null;
  /**
   * What confirming charges at once: the full first period or a prorated difference (negative: a
   * credit); null when nothing is charged now and the first charge comes at `firstChargeAt`.
   */
  now: { amount: number; prorated: boolean } | null;
  /** When the plan's price is first charged, if not now: the trial's end or the renewal. */
  firstChargeAt: string | null;
  /** The trial's end when the order turns a trial into the paid plan. */
  trialEnd: string | null;
}

/**
 * The order a first card places (docs/product.md#subscription): during the trial it turns the trial
 * into the plan's paid subscription at the trial's end; after a trial that ended without one, the
 * paused subscription resumes and the first period is charged at once. Replacing the card of a
 * paying subscription orders nothing.
 */
export function cardOrder(billing: Billing, plans: PlanCatalogue | undefined): Order | null {
  if (billing.card) return null;
  const price = plans ? choicePrice(plans, billing.plan, billing.currency) : null;
  const base = { choice: billing.plan, currency: billing.currency, price };
  if (billing.status === BillingStatus.trial) {
    return { ...base, now: null, firstChargeAt: billing.suspend_at, trialEnd: billing.suspend_at };
  }
  if (billing.status === BillingStatus.onHold || billing.status === BillingStatus.renewalFailed) {
    return {
      ...base,
      now: price === null ? null : { amount: price, prorated: false },
      firstChargeAt: null,
      trialEnd: null,
    };
  }
  return null;
}

/**
 * The order a plan change places: ordered again, the first period now; during the trial, the new
 * plan from the trial's end; booked, the new price from the renewal; at once, the provider's
 * proration now (a credit when cheaper) and the new price from the period's (new) end.
 */
export function planOrder(
  billing: Billing,
  choice: PlanChoice,
  timing: PlanChangeTiming,
  again: boolean,
  plans: PlanCatalogue | undefined,
  preview: PlanChangePreview | undefined,
): Order {
  const price = plans ? choicePrice(plans, choice, billing.currency) : null;
  const base = { choice, currency: billing.currency, price, trialEnd: null };
  if (again)
    return { ...base, now: price === null ? null : { amount: price, prorated: false }, firstChargeAt: null };
  if (billing.status === BillingStatus.trial) {
    return { ...base, now: null, firstChargeAt: billing.suspend_at, trialEnd: billing.suspend_at };
  }
  if (timing === 'renewal') return { ...base, now: null, firstChargeAt: billing.period_end };
  return {
    ...base,
    now: preview ? { amount: preview.amount_now, prorated: true } : null,
    firstChargeAt: preview?.period_end ?? billing.period_end,
  };
}
