// Creates the Stripe products and prices the billing catalogue names (docs/billing.md), idempotently:
// products by fixed id, prices by lookup key. Run it against the local stand-in or a Stripe test account:
//
//   STRIPE_SECRET_KEY=sk_test_… PLAN_PRICES='{"3":{…}}' ADDON_PRICES='{"ss":{…}}' pnpm tsx scripts/stripe-prices.ts
//   STRIPE_API_BASE=http://127.0.0.1:12111 STRIPE_SECRET_KEY=sk_test_stand_in … (the stand-in)
import { createStripe, syncStripePrices } from '@mimamori/account';
import { billingCatalogue, parseAddonPrices, parsePlanPrices } from '@mimamori/plans';

const secretKey = process.env.STRIPE_SECRET_KEY ?? '';
if (!secretKey.startsWith('sk_test_') && process.env.STRIPE_LIVE !== '1') {
  // A live key changes what real customers are charged: it takes an explicit STRIPE_LIVE=1.
  console.error('STRIPE_SECRET_KEY must be a test key (sk_test_…), or set STRIPE_LIVE=1 for a live account');
  process.exit(2);
}
const catalogue = billingCatalogue(
  parsePlanPrices(process.env.PLAN_PRICES ?? '{}'),
  parseAddonPrices(process.env.ADDON_PRICES ?? '{}'),
);
if (catalogue.length === 0) {
  console.error('PLAN_PRICES and ADDON_PRICES name no prices: nothing to create');
  process.exit(2);
}
const result = await syncStripePrices(
  createStripe(secretKey, process.env.STRIPE_API_BASE || undefined),
  catalogue,
);
console.log(`created ${result.created.length} price(s): ${result.created.join(', ') || '-'}`);
console.log(`kept ${result.kept.length} price(s) already in place`);
