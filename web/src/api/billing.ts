import type { Currency, Cycle, PlanPrice } from '@mimamori/plans';
import { apiRequest } from './client.ts';

/*
 * The billing routes of the gateway (issue 15; docs/product.md#subscription). Amounts are whole yen
 * or US cents (docs/product.md#prices).
 */

/** A plan with its cycle and, for the custom plan, its add-ons ("sites:<units>", "10min", "1min", "ss", "mail:<n>", "line"). */
export interface PlanChoice {
  plan: number;
  cycle: Cycle;
  options: string[];
}

/** Only what the payment provider returns for display; never the number. */
export interface Card {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/** The account's billing as the product records it. */
export interface Billing {
  /** 1 trial, 2 active, 6 renewal failed, 7 on hold, 9 ended. */
  status: number;
  /** Status 1: the trial's end; status 6: when the account is put on hold unless paid. */
  suspend_at: string | null;
  plan: PlanChoice;
  /** A change booked for the next renewal. */
  booked: PlanChoice | null;
  cancel_at_period_end: boolean;
  period_end: string | null;
  card: Card | null;
  currency: Currency;
  /** `stripe`: Stripe's Payment Element with `publishable_key`; `test`: the stand-in's test card form. */
  card_form: 'stripe' | 'test';
  publishable_key: string | null;
}

/** GET /api/plans, public: each sold plan's and add-on's price per cycle and currency. */
export interface PublicPlans {
  plans: Partial<Record<string, Record<Cycle, PlanPrice>>>;
  addons: Partial<Record<string, Record<Cycle, PlanPrice>>>;
}

/** Stripe's test cards the stand-in's form offers; the last attaches but every charge is declined. */
export const TEST_CARDS = ['pm_card_visa', 'pm_card_mastercard', 'pm_card_chargeCustomerFail'] as const;
export type TestCard = (typeof TEST_CARDS)[number];

export type PlanChangeTiming = 'now' | 'renewal';

export const CANCELLATION_REASONS = [
  'site_not_supported',
  'no_longer_needed',
  'hard_to_use',
  'too_expensive',
  'switching_service',
  'other',
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

const post = <T>(path: string, body?: unknown) =>
  apiRequest<T>(path, body === undefined ? { method: 'POST' } : { method: 'POST', body });

export function fetchPlans(signal?: AbortSignal): Promise<PublicPlans> {
  return apiRequest<PublicPlans>('/api/plans', signal ? { signal } : {});
}

export function fetchBilling(signal?: AbortSignal): Promise<Billing> {
  return apiRequest<Billing>('/api/billing', signal ? { signal } : {});
}

export function createSetupIntent(): Promise<{ setup_intent_id: string; client_secret: string }> {
  return post('/api/billing/setup_intent');
}

/** After the browser confirmed the SetupIntent with Stripe. */
export function confirmCard(setupIntentId: string): Promise<Billing> {
  return post('/api/billing/card', { setup_intent_id: setupIntentId });
}

/** The stand-in's test card form (test mode only). */
export function confirmTestCard(input: { setup_intent_id: string; test_card: TestCard }): Promise<Billing> {
  return post('/api/billing/test_card', input);
}

export function changePlan(input: PlanChoice & { timing: PlanChangeTiming }): Promise<Billing> {
  return post('/api/billing/plan', input);
}

export function cancelBookedChange(): Promise<Billing> {
  return post('/api/billing/plan/booked/cancel');
}

export function cancelSubscription(input: {
  reasons: CancellationReason[];
  comment: string;
}): Promise<Billing> {
  return post('/api/billing/cancel', input);
}

export function undoCancel(): Promise<Billing> {
  return post('/api/billing/cancel/undo');
}

/** Pays the open invoice again with the card on file; `paid` is false when it was declined again. */
export function reprocess(): Promise<{ paid: boolean; billing: Billing }> {
  return post('/api/billing/reprocess');
}

/** The Project plan (1,000 sites or more, yearly) is arranged by quote: this asks for one. */
export function requestProjectPlan(input: { sites: number; notes: string }): Promise<void> {
  return post('/api/billing/project_request', input);
}
