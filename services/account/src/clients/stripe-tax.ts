import type Stripe from 'stripe';

/** Japan's standard consumption tax, included in the prices the catalogue sets (総額表示). */
export const CONSUMPTION_TAX = {
  display_name: '消費税',
  percentage: 10,
  inclusive: true,
  country: 'JP',
  jurisdiction: 'JP',
  tax_type: 'jct',
} as const;

/**
 * The account's one tax rate for yen subscriptions, found among the active rates or created once.
 * A tax rate has no lookup key, so it is matched by what it says; concurrent first calls may each
 * create one, which only leaves an unused duplicate (the first found is used from then on).
 */
export async function consumptionTaxRate(stripe: Stripe): Promise<string> {
  for await (const rate of stripe.taxRates.list({ active: true, limit: 100 })) {
    if (
      rate.percentage === CONSUMPTION_TAX.percentage &&
      rate.inclusive === CONSUMPTION_TAX.inclusive &&
      rate.country === CONSUMPTION_TAX.country &&
      rate.tax_type === CONSUMPTION_TAX.tax_type
    )
      return rate.id;
  }
  const created = await stripe.taxRates.create(CONSUMPTION_TAX, {
    idempotencyKey: `tax-rate:jct:${CONSUMPTION_TAX.percentage}:inclusive`,
  });
  return created.id;
}
