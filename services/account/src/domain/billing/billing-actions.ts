import { isPlanId, type PlanId, subscriptionLines } from '@mimamori/plans';
import { SubscriptionStatus } from '../account-record.ts';
import type { CancellationFeedback } from '../cancellation-feedback.ts';
import type { Clock } from '../clock.ts';
import { TRIAL_DAYS, TRIAL_PLAN } from '../trial.ts';
import type { BillingProvider, BillingStore, ChangePreview, TestCard } from './billing-ports.ts';
import type { BillingRecord, PlanChoice } from './billing-record.ts';
import {
  afterNewCard,
  assertCanReprocess,
  assertCanSubscribeAgain,
  assertInGoodStanding,
  BillingRefused,
  bookChange,
  cancelAtPeriodEnd,
  dropBookedChange,
  followProvider,
  holdIfDue,
  type PlanChangeTiming,
  planChangeTiming,
  subscribedAgain,
  undoCancel,
} from './billing-state.ts';

export interface BillingDeps {
  provider: BillingProvider;
  store: BillingStore;
  clock: Clock;
  /** Status 6 lasts this long after the first failed renewal before the account is put on hold. */
  renewalGraceMs: number;
  /**
   * A provider event applied to the account (not a duplicate, not ignored), for the audit log:
   * the product's own record of what the payment provider changed.
   */
  applied?: (userId: string, eventType: string) => Promise<void>;
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

/**
 * Billing's use cases. Each one asks the provider to act, then re-reads the subscription and records
 * what the provider now says, so the product's record never runs ahead of (or behind) the provider.
 */
export function billingActions(deps: BillingDeps) {
  const { provider, store, clock } = deps;

  const required = async (userId: string): Promise<BillingRecord> => {
    const record = await store.byUser(userId);
    if (!record) throw new BillingRefused('renew_first');
    return record;
  };

  /** Re-reads the subscription inside the account's transaction and records it. */
  const refresh = (userId: string, cause: string, eventId?: { id: string; type: string }) =>
    store.within(userId, async (unit): Promise<WebhookOutcome> => {
      if (eventId && !(await unit.firstDelivery(eventId.id, eventId.type))) return 'duplicate';
      const sub = await provider.subscription(unit.record.subscriptionId);
      const { record, effects } = followProvider(unit.record, sub, clock.now(), deps.renewalGraceMs);
      // Stripe says so three days before the trial ends; only its event tells it.
      if (
        eventId?.type === 'customer.subscription.trial_will_end' &&
        record.status === SubscriptionStatus.trial
      )
        effects.push('trial_ending');
      await unit.save(record, effects, cause);
      return 'applied';
    });

  /**
   * A card the browser confirmed: becomes the default, then a paused subscription resumes and
   * anything unpaid is paid again, which lifts a renewal failure or hold.
   */
  const confirmCard = async (userId: string, setupIntentId: string): Promise<BillingRecord> => {
    const record = await required(userId);
    const card = await provider.setupIntentCard(setupIntentId, record.customerId);
    if (!card) throw new BillingRefused('no_card');
    await provider.setDefaultCard(record.customerId, record.subscriptionId, card.paymentMethodId);
    const { paymentMethodId: _, ...shown } = card;
    await store.within(userId, (unit) => unit.save({ ...unit.record, card: shown }, [], 'card'));
    const next = afterNewCard(record);
    if (next === 'resume') await provider.resume(record.subscriptionId, `resume:${setupIntentId}`);
    if (next === 'pay_open_invoices')
      await provider.payOpenInvoices(record.subscriptionId, `pay:${setupIntentId}`);
    await refresh(userId, 'card');
    return required(userId);
  };

  /**
   * The last subscription ended (9): the chosen plan starts a new one, its first period charged now
   * to the card on file. A declined charge ends the new one at once, so the account stays ended.
   */
  const subscribeAgain = async (userId: string, record: BillingRecord, choice: PlanChoice) => {
    assertCanSubscribeAgain(record);
    const lines = subscriptionLines(choice.plan, choice.options, choice.cycle, record.currency);
    // One new subscription per ended one and card: a retried request gets the same; a new card, a new try.
    const card = record.card;
    const key = `subscribe-again:${record.subscriptionId}:${card?.brand}${card?.last4}${card?.expMonth}${card?.expYear}:${lines.map((line) => `${line.lookupKey}x${line.quantity}`).join(',')}`;
    const sub = await provider.subscribe({ customerId: record.customerId, userId, lines }, key);
    if (sub.status !== 'active') {
      await provider.cancelNow(sub.id, `subscribe-again-declined:${sub.id}`);
      throw new BillingRefused('card_declined');
    }
    await store.within(userId, async (unit) => {
      const { record: next, effects } = followProvider(
        subscribedAgain(unit.record, sub.id),
        sub,
        clock.now(),
        deps.renewalGraceMs,
      );
      await unit.save(next, effects, 'subscribe-again');
    });
  };

  return {
    /**
     * Signup's side at the provider: a customer in the currency chosen at signup (fixed from then
     * on) and a 14-day trial without a card that pauses if it ends without one.
     */
    async startBilling(userId: string): Promise<BillingRecord> {
      const existing = await store.byUser(userId);
      if (existing) return existing;
      const signUp = await store.signUpOf(userId);
      if (!signUp) throw new Error(`no account ${userId}`);
      const plan: PlanId = isPlanId(signUp.plan) && signUp.plan >= 3 ? signUp.plan : TRIAL_PLAN;
      const customerId = await provider.createCustomer(
        { userId, email: signUp.email, currency: signUp.currency },
        `signup-customer:${userId}`,
      );
      const sub = await provider.startTrial(
        {
          customerId,
          userId,
          lines: subscriptionLines(plan, [], 'month', signUp.currency),
          trialDays: TRIAL_DAYS,
        },
        `signup-subscription:${userId}`,
      );
      const record: BillingRecord = {
        userId,
        currency: signUp.currency,
        customerId,
        subscriptionId: sub.id,
        providerStatus: sub.status,
        status: SubscriptionStatus.trial,
        suspendAt: sub.trialEnd,
        periodEnd: sub.currentPeriodEnd,
        cancelAtPeriodEnd: false,
        current: { plan, cycle: 'month', options: [] },
        booked: null,
        card: null,
      };
      await store.insert(record);
      return record;
    },

    state: required,

    async createSetupIntent(userId: string): Promise<{ id: string; clientSecret: string }> {
      const record = await required(userId);
      return provider.createSetupIntent(record.customerId);
    },

    confirmCard,

    /** The test card form: Stripe's test card instead of the Payment Element, in test mode only. */
    async confirmTestCard(userId: string, setupIntentId: string, testCard: TestCard): Promise<BillingRecord> {
      if (!provider.confirmTestCard) throw new BillingRefused('live_mode');
      const record = await required(userId);
      await provider.confirmTestCard(setupIntentId, record.customerId, testCard);
      return confirmCard(userId, setupIntentId);
    },

    /** "Reprocess": pays the open invoice again with the card on file. */
    async reprocess(userId: string): Promise<{ paid: boolean; record: BillingRecord }> {
      const record = await required(userId);
      assertCanReprocess(record);
      const paid = await provider.payOpenInvoices(record.subscriptionId, `reprocess:${userId}`);
      await refresh(userId, 'reprocess');
      return { paid, record: await required(userId) };
    },

    /**
     * Now (prorated; during the trial always now) or booked for the next renewal; after the end
     * (9), a new subscription on the chosen plan, paid now.
     */
    async changePlan(
      userId: string,
      choice: PlanChoice,
      asked: PlanChangeTiming,
      prorationDate: number | null = null,
    ): Promise<BillingRecord> {
      const record = await required(userId);
      if (record.status === SubscriptionStatus.cancelled) {
        await subscribeAgain(userId, record, choice);
        return required(userId);
      }
      const timing = planChangeTiming(record, asked);
      const lines = subscriptionLines(choice.plan, choice.options, choice.cycle, record.currency);
      if (timing === 'now') {
        const trialing = record.status === SubscriptionStatus.trial;
        await provider.changeNow(record.subscriptionId, lines, trialing, prorationDate);
      } else {
        await provider.bookAtRenewal(record.subscriptionId, lines);
        await store.within(userId, (unit) => {
          const booked = bookChange(unit.record, choice);
          return unit.save(booked.record, booked.effects, 'plan-booked');
        });
      }
      await refresh(userId, 'plan-change');
      return required(userId);
    },

    /**
     * What changing now would charge, shown before the user confirms (docs/product.md#subscription):
     * nothing during the trial, which goes on; afterwards the provider's proration for the rest of
     * the period, or the new cycle's price less the unused part when the cycle changes.
     */
    async previewPlanChange(
      userId: string,
      choice: PlanChoice,
    ): Promise<ChangePreview & { currency: BillingRecord['currency']; trial: boolean }> {
      const record = await required(userId);
      assertInGoodStanding(record);
      const { currency } = record;
      if (record.status === SubscriptionStatus.trial) {
        const prorationDate = Math.floor(clock.now().getTime() / 1000);
        return { amountNow: 0, periodEnd: record.suspendAt, prorationDate, currency, trial: true };
      }
      const lines = subscriptionLines(choice.plan, choice.options, choice.cycle, currency);
      return { ...(await provider.previewChange(record.subscriptionId, lines)), currency, trial: false };
    },

    /** The booked change goes; the current plan renews as it is. */
    async cancelBookedChange(userId: string): Promise<BillingRecord> {
      const record = await required(userId);
      if (!record.booked) throw new BillingRefused('nothing_booked');
      assertInGoodStanding(record);
      await provider.releaseBooking(record.subscriptionId);
      await store.within(userId, (unit) => {
        const dropped = dropBookedChange(unit.record);
        return unit.save(dropped.record, dropped.effects, 'booking-released');
      });
      await refresh(userId, 'booking-released');
      return required(userId);
    },

    /** Service continues to the period's end; the questionnaire is kept once the cancel is accepted. */
    async cancel(userId: string, feedback: CancellationFeedback): Promise<BillingRecord> {
      const record = await required(userId);
      cancelAtPeriodEnd(record);
      await provider.setCancelAtPeriodEnd(record.subscriptionId, true);
      await store.recordCancellation(userId, feedback, clock.now());
      await refresh(userId, 'cancel');
      return required(userId);
    },

    async undoCancel(userId: string): Promise<BillingRecord> {
      const record = await required(userId);
      undoCancel(record, clock.now());
      assertInGoodStanding(record);
      await provider.setCancelAtPeriodEnd(record.subscriptionId, false);
      await refresh(userId, 'undo-cancel');
      return required(userId);
    },

    /**
     * Stripe's webhook, given the raw body and signature header as received. Refused when forged or
     * stale (WebhookRefused); applied once per event id; whatever the event carried, the state
     * recorded is the one re-read from the provider, so events arriving out of order do no harm.
     */
    async handleWebhook(rawBody: string, signatureHeader: string): Promise<WebhookOutcome> {
      const event = provider.verifyEvent(rawBody, signatureHeader);
      const userId = await store.userOf({
        ...(event.subscriptionId ? { subscriptionId: event.subscriptionId } : {}),
        ...(event.customerId ? { customerId: event.customerId } : {}),
      });
      if (!userId) return 'ignored';
      const outcome = await refresh(userId, event.type, { id: event.id, type: event.type });
      if (outcome === 'applied') await deps.applied?.(userId, event.type);
      return outcome;
    },

    /**
     * The account was cancelled (the trial sweeper's delete date): its paused subscription would
     * otherwise stay at Stripe for ever. Nothing when billing never started for it.
     */
    async endAtProvider(userId: string): Promise<void> {
      const record = await store.byUser(userId);
      if (!record || record.providerStatus === 'canceled') return;
      await provider.cancelNow(record.subscriptionId, `account-cancelled:${userId}`);
      await refresh(userId, 'account-cancelled');
    },

    /** Status 6 past `suspend_at` becomes 7; run by the account sweeper. */
    async sweepHolds(): Promise<string[]> {
      const now = clock.now();
      const held: string[] = [];
      for (const userId of await store.dueHolds(now)) {
        await store.within(userId, async (unit) => {
          const { record, effects } = holdIfDue(unit.record, now);
          if (effects.length === 0) return;
          await unit.save(record, effects, 'suspend-deadline');
          held.push(userId);
        });
      }
      return held;
    },
  };
}

export type BillingActions = ReturnType<typeof billingActions>;
