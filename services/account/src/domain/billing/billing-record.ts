import type { Currency, Cycle, PlanId, SubscriptionLine } from '@mimamori/plans';

/** Statuses the payment provider gives a subscription (Stripe's `Subscription.status`). */
export type ProviderStatus =
  | 'trialing'
  | 'active'
  | 'incomplete'
  | 'incomplete_expired'
  | 'past_due'
  | 'unpaid'
  | 'canceled'
  | 'paused';

/** The provider's subscription, re-read from it, in the product's words. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  status: ProviderStatus;
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  lines: SubscriptionLine[];
  /** A change booked for the next renewal is pending (a subscription schedule is attached). */
  scheduled: boolean;
}

/** Only what the provider tells of a card; never its number. */
export interface Card {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface PlanChoice {
  plan: PlanId;
  cycle: Cycle;
  options: string[];
}

/** The product's own record of an account's billing; `user_info` shows this, never a webhook. */
export interface BillingRecord {
  userId: string;
  currency: Currency;
  customerId: string;
  subscriptionId: string;
  providerStatus: ProviderStatus;
  /** Product status: 1 trial, 2 active, 6 renewal failed, 7 on hold, 9 ended. */
  status: number;
  /** Status 6: when the account is put on hold unless paid; the trial's end during the trial. */
  suspendAt: Date | null;
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  current: PlanChoice;
  /** A change booked for the next renewal. */
  booked: PlanChoice | null;
  card: Omit<Card, 'paymentMethodId'> | null;
}
