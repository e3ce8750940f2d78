import type { CatalogueProduct, SubscriptionLine } from './billing-catalog.ts';
import type { Currency } from './plan-prices.ts';

/** Japan's standard consumption tax rate, in percent: every plan and add-on is taxed at it. */
export const CONSUMPTION_TAX_RATE = 10;

/**
 * The consumption tax inside a tax-inclusive yen amount (総額表示: the prices configured and charged
 * are what the customer pays): amount × 10/110, rounded down to the yen. Dollar prices are for
 * customers abroad, outside Japan's consumption tax (不課税), so they hold none: null.
 */
export function includedConsumptionTax(amount: number, currency: Currency): number | null {
  if (currency !== 'JPY') return null;
  return Math.floor((amount * CONSUMPTION_TAX_RATE) / (100 + CONSUMPTION_TAX_RATE));
}

/**
 * What the subscription lines cost per cycle at the catalogue's prices (a plan with its add-ons, as
 * the provider will bill it); null when a line has no configured price (not sold).
 */
export function linesAmount(
  catalogue: readonly CatalogueProduct[],
  lines: readonly SubscriptionLine[],
): number | null {
  const amounts = new Map(
    catalogue.flatMap((product) => product.prices.map((p) => [p.lookupKey, p.unitAmount])),
  );
  let total = 0;
  for (const line of lines) {
    const amount = amounts.get(line.lookupKey);
    if (amount === undefined) return null;
    total += amount * line.quantity;
  }
  return total;
}
