import type {
  BillingState,
  CardBody,
  CardOnFile,
  PlanCatalogue,
  PlanChangeBody,
  PlanChangePreview,
  ReprocessAnswer,
  SetupIntent,
} from '@mimamori/http-api';
import { type Currency, type Cycle, isCurrency, isCycle } from '@mimamori/plans';
import { apiRequest } from './client.ts';

/* The billing routes of the gateway (docs/product.md#subscription; amounts per docs/product.md#prices). */
export type { CardForm, PlanCatalogue, TestCard } from '@mimamori/http-api';

/** The questionnaire's reasons in the order the screen lists them; each must be one the gateway takes. */
type WireReason = typeof import('@mimamori/http-api')['CANCELLATION_REASONS'][number];
export const CANCELLATION_REASONS = [
  'site_not_supported',
  'no_longer_needed',
  'hard_to_use',
  'too_expensive',
  'switching_service',
  'other',
] as const satisfies readonly WireReason[];
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export type PlanChangeTiming = 'now' | 'renewal';

/** A plan choice with its cycle read as the catalogue's union. */
export interface PlanChoice {
  plan: number;
  cycle: Cycle;
  options: string[];
}

export type Card = CardOnFile;

/**
 * GET /api/billing as the screens use it: the wire's cycle and currency strings read as the
 * catalogue's unions, so prices and texts can be looked up without checking them at every use.
 */
export interface Billing extends Omit<BillingState, 'plan' | 'booked' | 'currency'> {
  plan: PlanChoice;
  booked: PlanChoice | null;
  currency: Currency;
}

function planChoiceFrom(choice: BillingState['plan']): PlanChoice {
  // The account service only records month and year; anything else would be a newer gateway.
  return { ...choice, cycle: isCycle(choice.cycle) ? choice.cycle : 'month' };
}

export function billingFrom(state: BillingState): Billing {
  return {
    ...state,
    plan: planChoiceFrom(state.plan),
    booked: state.booked ? planChoiceFrom(state.booked) : null,
    currency: isCurrency(state.currency) ? state.currency : 'JPY',
  };
}

const post = <T>(path: string, body?: unknown) =>
  apiRequest<T>(path, body === undefined ? { method: 'POST' } : { method: 'POST', body });
const postForBilling = async (path: string, body?: unknown) =>
  billingFrom(await post<BillingState>(path, body));

/** GET /api/plans, public: each sold plan's and add-on's price per cycle and currency. */
export function fetchPlans(signal?: AbortSignal): Promise<PlanCatalogue> {
  return apiRequest<PlanCatalogue>('/api/plans', signal ? { signal } : {});
}

export async function fetchBilling(signal?: AbortSignal): Promise<Billing> {
  return billingFrom(await apiRequest<BillingState>('/api/billing', signal ? { signal } : {}));
}

export function createSetupIntent(): Promise<SetupIntent> {
  return post('/api/billing/setup_intent');
}

/** After the card form confirmed the SetupIntent; the test form names its test card instead. */
export function confirmCard(input: CardBody): Promise<Billing> {
  return postForBilling('/api/billing/card', input);
}

export function changePlan(input: PlanChangeBody): Promise<Billing> {
  return postForBilling('/api/billing/plan', input);
}

/** What changing to `choice` now would charge, asked before the change is confirmed; changes nothing. */
export function previewPlanChange(choice: PlanChoice, signal?: AbortSignal): Promise<PlanChangePreview> {
  return apiRequest<PlanChangePreview>('/api/billing/plan/preview', {
    method: 'POST',
    body: choice,
    ...(signal ? { signal } : {}),
  });
}

export function cancelBookedChange(): Promise<Billing> {
  return postForBilling('/api/billing/plan/booked/cancel');
}

export function cancelSubscription(input: {
  reasons: CancellationReason[];
  comment: string;
}): Promise<Billing> {
  return postForBilling('/api/billing/cancel', input);
}

export function undoCancel(): Promise<Billing> {
  return postForBilling('/api/billing/cancel/undo');
}

/** Pays the open invoice again with the card on file; `paid` is false when it was declined again. */
export async function reprocess(): Promise<{ paid: boolean; billing: Billing }> {
  const answer = await post<ReprocessAnswer>('/api/billing/reprocess');
  return { paid: answer.paid, billing: billingFrom(answer.billing) };
}

/** The Project plan (1,000 sites or more, yearly) is arranged by quote: this asks for one. */
export function requestProjectPlan(input: { sites: number; notes: string }): Promise<{ request_id: string }> {
  return post('/api/billing/project_request', input);
}
