import { isPlanId, type PlanId } from '@mimamori/plans';
import { type SubscriptionRecord, SubscriptionStatus } from './account-record.ts';

/** Two weeks, no card (docs/product.md#subscription). */
export const TRIAL_DAYS = 14;
const DAY_MS = 86_400_000;

/** The plan a trial covers when the sign-up names none: Basic 5. */
export const TRIAL_PLAN: PlanId = 3;

/** A trial covers any catalogue plan with fixed quotas; the custom plan is arranged with a quote. */
export function isTrialPlan(plan: number): plan is PlanId {
  return isPlanId(plan) && plan >= 3;
}

export function startTrial(now: Date, plan: PlanId = TRIAL_PLAN): SubscriptionRecord {
  return {
    plan,
    cycle: 'month',
    options: [],
    status: SubscriptionStatus.trial,
    trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
    deleteAt: null,
    hasCard: false,
  };
}

/**
 * Moves trials through their end: a trial that ran out without a card is put on hold
 * (monitoring stops, TrialEnded is published) with a delete date `graceMs` later; an account
 * still without a card at that date is cancelled (AccountCancelled). Each call is one
 * transaction per step, safe with several replicas sweeping at once.
 */
export interface TrialPort {
  holdEndedTrials(now: Date, graceMs: number): Promise<string[]>;
  cancelUnpaidHolds(now: Date): Promise<string[]>;
}

export async function sweepTrials(
  port: TrialPort,
  now: Date,
  graceMs: number,
): Promise<{ held: string[]; cancelled: string[] }> {
  const held = await port.holdEndedTrials(now, graceMs);
  const cancelled = await port.cancelUnpaidHolds(now);
  return { held, cancelled };
}
