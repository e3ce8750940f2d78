import { randomBytes } from 'node:crypto';
import {
  type AccountServiceOptions,
  type Clock,
  createStripe,
  stripeBilling,
  syncStripePrices,
  systemClock,
} from '@mimamori/account';
import { type AddonPrices, billingCatalogue, type PlanPrices } from '@mimamori/plans';
import type { Shutdown } from '@mimamori/runtime';
import { StripeStandIn } from '@mimamori/stripe-stand-in';

export interface StandaloneBillingOptions {
  /** Stripe's keys (docs/billing.md); without a secret key the product talks to the stand-in. */
  stripe: { secretKey: string; webhookSecret: string; apiBase: string; publishableKey: string };
  planPrices: PlanPrices;
  addonPrices: AddonPrices;
  renewalGraceDays: number;
  /** Only a product reachable from this machine alone gets the stand-in (and its test cards). */
  loopbackOnly: boolean;
  shutdown: Shutdown;
}

export interface StandaloneBilling {
  /** For createAccountService; null when billing is off. */
  billing: AccountServiceOptions['billing'];
  /** Billing's clock, which the stand-in's test clock moves. */
  clock: Clock;
  publishableKey?: string;
  /** Where the stand-in serves Stripe's API (and its test clocks), when it runs. */
  standInUrl?: string;
  /** The stand-in posts its signed events to the product's webhook route once the port is known. */
  listening(productUrl: string): void;
}

/**
 * Billing for the one-process product. With Stripe keys it is Stripe; without them, on loopback and
 * with prices configured, a local stand-in plays Stripe's API in this process with those prices, and
 * the card form is the marked test form; otherwise billing is off. Its clock starts at the wall clock and runs with it; moving the stand-in's
 * test clock moves billing's clock by as much, so a trial can end or a period renew on demand.
 */
export async function standaloneBilling(options: StandaloneBillingOptions): Promise<StandaloneBilling> {
  const renewalGraceMs = options.renewalGraceDays * 86_400_000;
  const { stripe } = options;
  if (stripe.secretKey) {
    return {
      billing: {
        provider: stripeBilling({
          secretKey: stripe.secretKey,
          webhookSecret: stripe.webhookSecret,
          ...(stripe.apiBase ? { apiBase: stripe.apiBase } : {}),
          clock: systemClock,
        }),
        renewalGraceMs,
      },
      clock: systemClock,
      ...(stripe.publishableKey ? { publishableKey: stripe.publishableKey } : {}),
      listening: () => {},
    };
  }
  // The stand-in sells what configuration prices; with nothing priced there is nothing to bill.
  const priced = Object.keys(options.planPrices).length > 0;
  if (!options.loopbackOnly || !priced) return { billing: null, clock: systemClock, listening: () => {} };

  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const standIn = new StripeStandIn({ webhookSecret });
  const { host, port } = await standIn.listen();
  options.shutdown.register('stripe stand-in', () => standIn.close());
  const apiBase = `http://${host}:${port}`;
  const secretKey = 'sk_test_standalone';
  await syncStripePrices(
    createStripe(secretKey, apiBase),
    billingCatalogue(options.planPrices, options.addonPrices),
  );
  const started = standIn.now;
  const clock: Clock = { now: () => new Date(Date.now() + (standIn.now - started) * 1000) };
  return {
    billing: { provider: stripeBilling({ secretKey, webhookSecret, apiBase, clock }), renewalGraceMs },
    clock,
    standInUrl: apiBase,
    listening: (productUrl) => standIn.setWebhookUrl(new URL('/api/stripe/webhook', productUrl).toString()),
  };
}
