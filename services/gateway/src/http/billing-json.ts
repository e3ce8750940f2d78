import type { billingV1 } from '@mimamori/contracts';
import {
  type BillingState,
  type CardForm,
  type PlanCatalogue,
  type PlanChoice,
  TEST_CARDS,
} from '@mimamori/http-api';
import { BILLED_PLANS, PLANS, planQuota } from '@mimamori/plans';

/**
 * The card form the browser shows: Stripe's Payment Element when the gateway has the publishable
 * key, else the clearly marked test form (the stand-in, tests), which Stripe's test mode accepts too.
 */
export function cardFormFor(publishableKey: string | undefined): CardForm {
  return publishableKey
    ? { kind: 'payment_element', publishable_key: publishableKey }
    : { kind: 'test_cards', cards: [...TEST_CARDS] };
}

function toPlanChoice(plan: billingV1.PlanChoice): PlanChoice {
  return { plan: plan.plan, cycle: plan.cycle, options: plan.options };
}

export function toBillingJson(billing: billingV1.Billing | undefined, form: CardForm): BillingState {
  if (!billing) throw new Error('the account service answered without billing');
  return {
    status: billing.status,
    suspend_at: billing.suspendAt?.toISOString() ?? null,
    currency: billing.currency,
    plan: billing.plan ? toPlanChoice(billing.plan) : { plan: 0, cycle: 'month', options: [] },
    booked: billing.booked ? toPlanChoice(billing.booked) : null,
    cancel_at_period_end: billing.cancelAtPeriodEnd,
    period_end: billing.periodEnd?.toISOString() ?? null,
    has_pi: billing.card !== undefined,
    card: billing.card
      ? {
          brand: billing.card.brand,
          last4: billing.card.last4,
          exp_month: billing.card.expMonth,
          exp_year: billing.card.expYear,
        }
      : null,
    card_form: form,
    at: (billing.asOf ?? new Date()).toISOString(),
  };
}

/** The catalogue (names, sites, limits) from packages/plans with the prices configuration gives. */
export function toPlanCatalogue(prices: billingV1.PriceEntry[]): PlanCatalogue {
  const priced = (entry: billingV1.PriceEntry | undefined) =>
    entry
      ? {
          month: { JPY: entry.monthJpy, USD: entry.monthUsd },
          year: { JPY: entry.yearJpy, USD: entry.yearUsd },
        }
      : null;
  return {
    plans: BILLED_PLANS.map((id) => ({
      plan: id,
      name_key: PLANS[id].nameKey,
      sites: PLANS[id].sites,
      num: planQuota(id, []),
      prices: priced(prices.find((entry) => entry.addon === '' && entry.plan === id)),
    })),
    addons: prices
      .filter((entry) => entry.addon !== '')
      .map((entry) => ({ addon: entry.addon, prices: priced(entry) })),
  };
}
