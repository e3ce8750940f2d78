import type { CatalogueProduct } from '@mimamori/plans';
import type Stripe from 'stripe';

export interface PriceSyncResult {
  created: string[];
  kept: string[];
}

/**
 * Makes the Stripe account sell what the catalogue says. Safe to run again: products are found by
 * their fixed id and prices by lookup key. A Stripe price cannot change its amount, so a price whose
 * amount or cycle differs is created anew and takes the lookup key over (`transfer_lookup_key`);
 * subscriptions on the old price keep it until they change plan.
 */
export async function syncStripePrices(
  stripe: Stripe,
  catalogue: CatalogueProduct[],
): Promise<PriceSyncResult> {
  const result: PriceSyncResult = { created: [], kept: [] };
  for (const product of catalogue) {
    await ensureProduct(stripe, product);
    const keys = product.prices.map((price) => price.lookupKey);
    const existing = await stripe.prices.list({ lookup_keys: keys, active: true, limit: 100 });
    for (const price of product.prices) {
      const found = existing.data.find((candidate) => candidate.lookup_key === price.lookupKey);
      const same =
        found &&
        found.unit_amount === price.unitAmount &&
        found.currency === price.currency.toLowerCase() &&
        found.recurring?.interval === 'day' &&
        found.recurring.interval_count === price.intervalDays;
      if (same) {
        result.kept.push(price.lookupKey);
        continue;
      }
      await stripe.prices.create(
        {
          product: product.productId,
          currency: price.currency.toLowerCase(),
          unit_amount: price.unitAmount,
          recurring: { interval: 'day', interval_count: price.intervalDays },
          // The configured amount is what the customer pays, tax included (総額表示, docs/legal.md):
          // with Stripe Tax on, the tax is taken out of it rather than added.
          tax_behavior: 'inclusive',
          lookup_key: price.lookupKey,
          transfer_lookup_key: true,
          nickname: `${product.name} (${price.cycle}, ${price.currency})`,
        },
        // The same run retried creates nothing twice; a changed amount is a new request.
        { idempotencyKey: `price:${price.lookupKey}:${price.unitAmount}:${price.intervalDays}` },
      );
      result.created.push(price.lookupKey);
    }
  }
  return result;
}

async function ensureProduct(stripe: Stripe, product: CatalogueProduct): Promise<void> {
  try {
    await stripe.products.retrieve(product.productId);
  } catch (error) {
    if ((error as { code?: string }).code !== 'resource_missing') throw error;
    await stripe.products.create({ id: product.productId, name: product.name });
  }
}
