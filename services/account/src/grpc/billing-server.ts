import type { billingV1 } from '@mimamori/contracts';
import {
  ADDONS,
  type AddonPrices,
  BILLED_PLANS,
  customPlanQuota,
  isCycle,
  isPlanId,
  type PlanPrice,
  type PlanPrices,
} from '@mimamori/plans';
import { unaryHandler } from '@mimamori/service-host';
import type { AccountDeps } from '../domain/account-deps.ts';
import { AccountProblem } from '../domain/account-problem.ts';
import type { BillingActions } from '../domain/billing/billing-actions.ts';
import { TEST_CARDS, type TestCard, WebhookRefused } from '../domain/billing/billing-ports.ts';
import type { BillingRecord, PlanChoice } from '../domain/billing/billing-record.ts';
import { BillingRefused } from '../domain/billing/billing-state.ts';
import { type CancellationReason, checkCancellationFeedback } from '../domain/cancellation-feedback.ts';
import { requireUser } from '../domain/sessions.ts';
import { answering } from './problem-status.ts';

/**
 * Billing over gRPC; refusals become the account service's problems (FAILED_PRECONDITION, INVALID_ARGUMENT).
 * Without Stripe keys (`billing` null) only the prices are answered; the rest is refused billing_off
 * after the session check, so a signed-out caller still hears UNAUTHENTICATED first.
 */
export function billingServer(
  maybeBilling: BillingActions | null,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
  prices: { plans: PlanPrices; addons: AddonPrices },
): billingV1.BillingServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => asProblem(() => work(request))));
  const on = (): BillingActions => {
    if (!maybeBilling) throw new AccountProblem('precondition', 'billing_off');
    return maybeBilling;
  };
  const user = async (request: { sessionToken: string }) => {
    const userId = await requireUser(request.sessionToken, deps);
    on();
    return userId;
  };
  // Every answer carries billing's clock, which the screens count days left from.
  const toBilling = (record: BillingRecord) => billingMessage(record, deps.clock.now());
  const billing = {
    state: (userId: string) => on().state(userId),
    createSetupIntent: (userId: string) => on().createSetupIntent(userId),
    confirmCard: (userId: string, id: string) => on().confirmCard(userId, id),
    confirmTestCard: (userId: string, id: string, card: TestCard) => on().confirmTestCard(userId, id, card),
    changePlan: (...args: Parameters<BillingActions['changePlan']>) => on().changePlan(...args),
    previewPlanChange: (...args: Parameters<BillingActions['previewPlanChange']>) =>
      on().previewPlanChange(...args),
    cancelBookedChange: (userId: string) => on().cancelBookedChange(userId),
    cancel: (...args: Parameters<BillingActions['cancel']>) => on().cancel(...args),
    undoCancel: (userId: string) => on().undoCancel(userId),
    reprocess: (userId: string) => on().reprocess(userId),
    handleWebhook: (raw: string, signature: string) => on().handleWebhook(raw, signature),
  };

  return {
    listPrices: rpc(async (_request: billingV1.ListPricesRequest) => ({
      prices: [
        ...BILLED_PLANS.flatMap((plan) => priceEntry(prices.plans[plan], { plan, addon: '' })),
        ...ADDONS.flatMap((addon) => priceEntry(prices.addons[addon], { plan: 0, addon })),
      ],
    })),
    getBilling: rpc(async (request: billingV1.GetBillingRequest) => ({
      billing: toBilling(await billing.state(await user(request))),
    })),
    createSetupIntent: rpc(async (request: billingV1.CreateSetupIntentRequest) => {
      const intent = await billing.createSetupIntent(await user(request));
      return { setupIntentId: intent.id, clientSecret: intent.clientSecret };
    }),
    confirmCard: rpc(async (request: billingV1.ConfirmCardRequest) => ({
      billing: toBilling(await billing.confirmCard(await user(request), request.setupIntentId)),
    })),
    confirmTestCard: rpc(async (request: billingV1.ConfirmTestCardRequest) => {
      const userId = await user(request);
      if (!(TEST_CARDS as readonly string[]).includes(request.testCard))
        throw new AccountProblem('invalid', 'invalid_test_card');
      const record = await billing.confirmTestCard(
        userId,
        request.setupIntentId,
        request.testCard as TestCard,
      );
      return { billing: toBilling(record) };
    }),
    changePlan: rpc(async (request: billingV1.ChangePlanRequest) => {
      const userId = await user(request);
      const timing = request.timing === 'renewal' ? 'renewal' : request.timing === 'now' ? 'now' : null;
      if (!timing) throw new AccountProblem('invalid', 'invalid_timing');
      const prorationDate = Number(request.prorationDate) || null;
      return {
        billing: toBilling(await billing.changePlan(userId, planChoice(request.plan), timing, prorationDate)),
      };
    }),
    previewPlanChange: rpc(async (request: billingV1.PreviewPlanChangeRequest) => {
      const userId = await user(request);
      const preview = await billing.previewPlanChange(userId, planChoice(request.plan));
      return {
        amountNow: preview.amountNow,
        currency: preview.currency,
        trial: preview.trial,
        periodEnd: preview.periodEnd ?? undefined,
        prorationDate: preview.prorationDate,
      };
    }),
    cancelBookedChange: rpc(async (request: billingV1.CancelBookedChangeRequest) => ({
      billing: toBilling(await billing.cancelBookedChange(await user(request))),
    })),
    cancel: rpc(async (request: billingV1.CancelRequest) => {
      const userId = await user(request);
      const feedback = { reasons: request.reasons, comment: request.comment };
      const problem = checkCancellationFeedback(feedback);
      if (problem) throw new AccountProblem('invalid', problem);
      const record = await billing.cancel(userId, {
        reasons: feedback.reasons as CancellationReason[],
        comment: feedback.comment,
      });
      return { billing: toBilling(record) };
    }),
    undoCancel: rpc(async (request: billingV1.UndoCancelRequest) => ({
      billing: toBilling(await billing.undoCancel(await user(request))),
    })),
    reprocess: rpc(async (request: billingV1.ReprocessRequest) => {
      const { paid, record } = await billing.reprocess(await user(request));
      return { paid, billing: toBilling(record) };
    }),
    handleStripeWebhook: rpc(async (request: billingV1.HandleStripeWebhookRequest) => ({
      outcome: await billing.handleWebhook(Buffer.from(request.rawBody).toString('utf8'), request.signature),
    })),
  };
}

async function asProblem<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BillingRefused) throw new AccountProblem('precondition', error.reason);
    if (error instanceof WebhookRefused) throw new AccountProblem('invalid', error.reason);
    throw error;
  }
}

function planChoice(plan: billingV1.PlanChoice | undefined): PlanChoice {
  // Plans 0 and 1 are not sold; options belong to the custom plan only.
  if (!plan || !isPlanId(plan.plan) || plan.plan < 2 || !isCycle(plan.cycle))
    throw new AccountProblem('invalid', 'invalid_plan');
  if (plan.plan !== 2 && plan.options.length > 0) throw new AccountProblem('invalid', 'invalid_options');
  try {
    customPlanQuota(plan.options);
  } catch {
    throw new AccountProblem('invalid', 'invalid_options');
  }
  return { plan: plan.plan, cycle: plan.cycle, options: plan.options };
}

function priceEntry(
  table: Record<'month' | 'year', PlanPrice> | undefined,
  what: { plan: number; addon: string },
): billingV1.PriceEntry[] {
  if (!table) return [];
  return [
    {
      ...what,
      monthJpy: table.month.JPY,
      monthUsd: table.month.USD,
      yearJpy: table.year.JPY,
      yearUsd: table.year.USD,
    },
  ];
}

function billingMessage(record: BillingRecord, asOf: Date): billingV1.Billing {
  return {
    asOf,
    status: record.status,
    suspendAt: record.suspendAt ?? undefined,
    plan: record.current,
    booked: record.booked ?? undefined,
    cancelAtPeriodEnd: record.cancelAtPeriodEnd,
    periodEnd: record.periodEnd ?? undefined,
    card: record.card ?? undefined,
    currency: record.currency,
  };
}
