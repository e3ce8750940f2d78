import type { CatalogEntry } from '@mimamori/bus';
import { accountCancelled, accountCreated, streams } from '@mimamori/events';
import type { BillingActions } from '../domain/billing/billing-actions.ts';

/**
 * Signup's billing side runs off accounts.created, after the sign-up transaction committed: the
 * Stripe customer and the card-less trial. A redelivery finds the record already made, and Stripe's
 * idempotency keys make a retry half-way through create nothing twice.
 */
export function billingSignUpConsumer(billing: BillingActions): CatalogEntry {
  return {
    stream: streams.accounts.name,
    durable: 'account-billing-signup',
    subject: accountCreated.subject,
    maxDeliver: 20,
    ackWaitMs: 30_000,
    handler: async (message) => {
      const { userId } = accountCreated.decode(message.data);
      await billing.startBilling(userId);
    },
  };
}

/** A cancelled account's subscription ends at Stripe too, so nothing is billed or kept paused there. */
export function billingCancelConsumer(billing: BillingActions): CatalogEntry {
  return {
    stream: streams.accounts.name,
    durable: 'account-billing-cancelled',
    subject: accountCancelled.subject,
    maxDeliver: 20,
    ackWaitMs: 30_000,
    handler: async (message) => {
      const { userId } = accountCancelled.decode(message.data);
      await billing.endAtProvider(userId);
    },
  };
}
