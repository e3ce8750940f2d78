import type { Currency, SubscriptionLine } from '@mimamori/plans';
import type { CancellationFeedback } from '../cancellation-feedback.ts';
import type { BillingRecord, Card, ProviderSubscription } from './billing-record.ts';
import type { BillingEffect } from './billing-state.ts';

/** A webhook event that passed the signature and age checks; only what billing acts on. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** The subscription it concerns, when it names one (subscription, invoice, schedule events). */
  subscriptionId: string | null;
  /** The customer it concerns (setup intents and payment methods name only the customer). */
  customerId: string | null;
}

/** Stripe's test card ids the test form offers. */
export const TEST_CARDS = ['pm_card_visa', 'pm_card_mastercard', 'pm_card_chargeCustomerFail'] as const;
export type TestCard = (typeof TEST_CARDS)[number];

export class WebhookRefused extends Error {
  constructor(readonly reason: 'signature' | 'stale' | 'malformed') {
    super(`webhook refused: ${reason}`);
  }
}

/**
 * The payment provider as billing needs it (Stripe in clients/stripe-billing.ts). Every call that
 * changes something takes an idempotency key so a retried request does it once.
 */
export interface BillingProvider {
  createCustomer(
    input: { userId: string; email: string | null; currency: Currency },
    key: string,
  ): Promise<string>;
  startTrial(
    input: { customerId: string; userId: string; lines: SubscriptionLine[]; trialDays: number },
    key: string,
  ): Promise<ProviderSubscription>;
  /**
   * A new subscription for a customer whose last one ended (docs/product.md#subscription: subscribing
   * again): no trial, the first period charged at once to the customer's default card. A declined
   * first charge leaves it `incomplete`.
   */
  subscribe(
    input: { customerId: string; userId: string; lines: SubscriptionLine[] },
    key: string,
  ): Promise<ProviderSubscription>;
  subscription(id: string): Promise<ProviderSubscription>;
  /** A new one each time: a card form opened twice gets two, and only a confirmed one counts. */
  createSetupIntent(customerId: string): Promise<{ id: string; clientSecret: string }>;
  /** The card a succeeded setup intent saved for this customer; null if it has not succeeded. */
  setupIntentCard(setupIntentId: string, customerId: string): Promise<Card | null>;
  /**
   * Test mode only (null with a live key): confirms the customer's setup intent with one of Stripe's
   * test cards, as the test card form does instead of the Payment Element.
   */
  confirmTestCard: ((setupIntentId: string, customerId: string, testCard: TestCard) => Promise<void>) | null;
  /** Makes the card the one renewals and retries charge (customer and subscription default). */
  setDefaultCard(customerId: string, subscriptionId: string, paymentMethodId: string): Promise<void>;
  resume(subscriptionId: string, key: string): Promise<void>;
  /** Pays every open invoice of the subscription; false when a payment was declined. */
  payOpenInvoices(subscriptionId: string, key: string): Promise<boolean>;
  /**
   * Asking twice for the same plan changes nothing the second time (same prices, no proration).
   * `prorationDate` (Unix seconds, from previewChange) prorates as of then, so the charge is the
   * previewed one; null prorates as of now.
   */
  changeNow(
    subscriptionId: string,
    lines: SubscriptionLine[],
    trialing: boolean,
    prorationDate: number | null,
  ): Promise<void>;
  /**
   * What `changeNow` to these lines would charge at once, before it is made: the provider's
   * proration preview (negative: a credit the next invoices use up), and when the period then ends.
   */
  previewChange(subscriptionId: string, lines: SubscriptionLine[]): Promise<ChangePreview>;
  bookAtRenewal(subscriptionId: string, lines: SubscriptionLine[]): Promise<void>;
  /** Drops a change booked for the next renewal; the subscription goes on as it is. */
  releaseBooking(subscriptionId: string): Promise<void>;
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void>;
  /** Ends the subscription now (the account was cancelled); nothing more is billed. */
  cancelNow(subscriptionId: string, key: string): Promise<void>;
  /** Verifies the raw body against the signature header; throws WebhookRefused. */
  verifyEvent(rawBody: string, signatureHeader: string): ProviderEvent;
}

/** A plan change's price before it is confirmed; amounts in the currency's smallest unit. */
export interface ChangePreview {
  amountNow: number;
  periodEnd: Date | null;
  /** Unix seconds the proration was computed for; changeNow with it charges amountNow. */
  prorationDate: number;
}

/** Where billing keeps its record; `within` runs one transaction with the record locked. */
export interface BillingStore {
  insert(record: BillingRecord): Promise<void>;
  byUser(userId: string): Promise<BillingRecord | null>;
  userOf(ref: { subscriptionId?: string; customerId?: string }): Promise<string | null>;
  /** The account's e-mail address, currency and plan as sign-up left them. */
  signUpOf(userId: string): Promise<{ email: string | null; currency: Currency; plan: number } | null>;
  within<T>(userId: string, work: (unit: BillingUnit) => Promise<T>): Promise<T>;
  /** Keeps the cancel screen's questionnaire answers. */
  recordCancellation(userId: string, feedback: CancellationFeedback, at: Date): Promise<void>;
  /** Accounts in status 6 whose deadline has passed. */
  dueHolds(now: Date): Promise<string[]>;
}

export interface BillingUnit {
  record: BillingRecord;
  /** Records the webhook event id; false when it was seen before (then nothing else is done). */
  firstDelivery(eventId: string, type: string): Promise<boolean>;
  save(record: BillingRecord, effects: BillingEffect[], cause: string): Promise<void>;
}
