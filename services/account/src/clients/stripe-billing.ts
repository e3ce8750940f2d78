import type { SubscriptionLine } from '@mimamori/plans';
import Stripe from 'stripe';
import { type BillingProvider, type ProviderEvent, WebhookRefused } from '../domain/billing/billing-ports.ts';
import type { ProviderStatus, ProviderSubscription } from '../domain/billing/billing-record.ts';
import { BillingRefused } from '../domain/billing/billing-state.ts';
import type { Clock } from '../domain/clock.ts';
import { consumptionTaxRate } from './stripe-tax.ts';

export interface StripeBillingOptions {
  secretKey: string;
  webhookSecret: string;
  /** The stand-in's address (`http://127.0.0.1:12111`); Stripe itself when unset. */
  apiBase?: string;
  clock: Clock;
  /** Oldest webhook signature accepted, in seconds; Stripe's default is 300. */
  toleranceSeconds?: number;
}

/** A Stripe client pointed at Stripe, or at the stand-in through the SDK's host/port/protocol options. */
export function createStripe(secretKey: string, apiBase?: string): Stripe {
  if (!apiBase) return new Stripe(secretKey, { maxNetworkRetries: 2, telemetry: false });
  const url = new URL(apiBase);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
    telemetry: false,
  });
}

/** Billing's provider port on Stripe (docs/billing.md). */
export function stripeBilling(options: StripeBillingOptions): BillingProvider {
  const stripe = createStripe(options.secretKey, options.apiBase);
  const tolerance = options.toleranceSeconds ?? 300;
  const priceIds = new Map<string, string>();
  let taxRate: Promise<string> | null = null;
  // Yen prices include Japan's consumption tax (総額表示); the rate makes Stripe's invoices show it.
  const taxRatesFor = async (lines: SubscriptionLine[]) => {
    if (!lines.some((line) => line.lookupKey.endsWith('_jpy'))) return [];
    taxRate ??= consumptionTaxRate(stripe).catch((error: unknown) => {
      taxRate = null;
      throw error;
    });
    return [await taxRate];
  };

  const priceId = async (lookupKey: string): Promise<string> => {
    const known = priceIds.get(lookupKey);
    if (known) return known;
    const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    const id = found.data[0]?.id;
    // Configuration prices no such plan or add-on in this cycle and currency, or the price script
    // has not been run for it (docs/billing.md): it cannot be bought.
    if (!id) throw new BillingRefused('plan_not_sold');
    priceIds.set(lookupKey, id);
    return id;
  };
  const items = (lines: SubscriptionLine[]) =>
    Promise.all(
      lines.map(async (line) => ({ price: await priceId(line.lookupKey), quantity: line.quantity })),
    );

  /** The setup intent when it is this customer's; null for an unknown id or another customer's. */
  const ownIntent = async (id: string, customerId: string): Promise<Stripe.SetupIntent | null> => {
    if (!/^seti_\w{1,200}$/.test(id)) return null;
    try {
      const intent = await stripe.setupIntents.retrieve(id);
      return idOf(intent.customer) === customerId ? intent : null;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw error;
    }
  };

  const read = async (id: string): Promise<ProviderSubscription> =>
    toSubscription(await stripe.subscriptions.retrieve(id));

  return {
    async createCustomer({ userId, email, currency }, key) {
      const customer = await stripe.customers.create(
        { ...(email ? { email } : {}), metadata: { account_id: userId, currency } },
        { idempotencyKey: key },
      );
      return customer.id;
    },

    async startTrial({ customerId, userId, lines, trialDays }, key) {
      const sub = await stripe.subscriptions.create(
        {
          customer: customerId,
          items: await items(lines),
          default_tax_rates: await taxRatesFor(lines),
          trial_period_days: trialDays,
          // A trial that ends without a card pauses: no invoices until a card is registered.
          trial_settings: { end_behavior: { missing_payment_method: 'pause' } },
          metadata: { account_id: userId },
        },
        { idempotencyKey: key },
      );
      return toSubscription(sub);
    },

    async subscribe({ customerId, userId, lines }, key) {
      const sub = await stripe.subscriptions.create(
        {
          customer: customerId,
          items: await items(lines),
          default_tax_rates: await taxRatesFor(lines),
          // The first period is paid now with the customer's default card; a decline leaves the
          // subscription incomplete, which billing cancels so the account stays as it was.
          payment_behavior: 'allow_incomplete',
          metadata: { account_id: userId },
        },
        { idempotencyKey: key },
      );
      return toSubscription(sub);
    },

    subscription: read,

    async createSetupIntent(customerId) {
      const intent = await stripe.setupIntents.create({
        customer: customerId,
        usage: 'off_session',
        automatic_payment_methods: { enabled: true },
      });
      if (!intent.client_secret) throw new Error('Stripe returned a setup intent without a client secret');
      return { id: intent.id, clientSecret: intent.client_secret };
    },

    async setupIntentCard(setupIntentId, customerId) {
      const intent = await ownIntent(setupIntentId, customerId);
      if (!intent) return null;
      if (intent.status !== 'succeeded' || idOf(intent.customer) !== customerId || !intent.payment_method)
        return null;
      const pm = await stripe.paymentMethods.retrieve(idOf(intent.payment_method) as string);
      if (!pm.card) return null;
      return {
        paymentMethodId: pm.id,
        brand: pm.card.brand,
        last4: pm.card.last4,
        expMonth: pm.card.exp_month,
        expYear: pm.card.exp_year,
      };
    },

    // Stripe's test mode confirms a setup intent server-side with a test card id; a live key must not.
    confirmTestCard: options.secretKey.startsWith('sk_test_')
      ? async (setupIntentId, customerId, testCard) => {
          // Another customer's or an unknown intent is left alone; confirming the card then finds none.
          const intent = await ownIntent(setupIntentId, customerId);
          if (intent && intent.status !== 'succeeded')
            await stripe.setupIntents.confirm(setupIntentId, { payment_method: testCard });
        }
      : null,

    async setDefaultCard(customerId, subscriptionId, paymentMethodId) {
      // Retries look at the subscription's default first, then the customer's; set both.
      await stripe.customers.update(customerId, {
        invoice_settings: { default_payment_method: paymentMethodId },
      });
      await stripe.subscriptions.update(subscriptionId, { default_payment_method: paymentMethodId });
    },

    async resume(subscriptionId, key) {
      await stripe.subscriptions.resume(subscriptionId, {}, { idempotencyKey: key });
    },

    async payOpenInvoices(subscriptionId, key) {
      const open = await stripe.invoices.list({ subscription: subscriptionId, status: 'open', limit: 100 });
      let paid = true;
      for (const invoice of open.data) {
        try {
          // One key per attempt on this invoice: a retried request is not charged twice, while a
          // later "reprocess" (after a declined one) is a new attempt.
          await stripe.invoices.pay(
            invoice.id as string,
            {},
            { idempotencyKey: `${key}:${invoice.id}:${invoice.attempt_count}` },
          );
        } catch (error) {
          if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
          paid = false;
        }
      }
      return paid;
    },

    async changeNow(subscriptionId, lines, trialing, prorationDate) {
      const sub = await stripe.subscriptions.retrieve(subscriptionId);
      const wanted = await items(lines);
      // Every item is re-priced in one call: currency and interval must match across items.
      const keep = sub.items.data.slice(0, wanted.length);
      await stripe.subscriptions.update(subscriptionId, {
        items: [
          ...wanted.map((item, index) => ({ ...item, ...(keep[index] ? { id: keep[index].id } : {}) })),
          ...sub.items.data.slice(wanted.length).map((item) => ({ id: item.id, deleted: true })),
        ],
        // During the trial nothing is billed and the trial continues.
        proration_behavior: trialing ? 'none' : 'always_invoice',
        // As previewed: Stripe prorates as of the preview's moment, so it charges what was shown.
        ...(prorationDate && !trialing ? { proration_date: prorationDate } : {}),
      });
    },

    async previewChange(subscriptionId, lines) {
      const sub = await stripe.subscriptions.retrieve(subscriptionId);
      const wanted = await items(lines);
      const keep = sub.items.data.slice(0, wanted.length);
      const at = Math.floor(options.clock.now().getTime() / 1000);
      // The same items changeNow sends, previewed as Stripe's upcoming invoice with the proration
      // computed as of now (docs.stripe.com/api/invoices/create_preview).
      const preview = await stripe.invoices.createPreview({
        subscription: subscriptionId,
        subscription_details: {
          items: [
            ...wanted.map((item, index) => ({ ...item, ...(keep[index] ? { id: keep[index].id } : {}) })),
            ...sub.items.data.slice(wanted.length).map((item) => ({ id: item.id, deleted: true })),
          ],
          proration_behavior: 'always_invoice',
          proration_date: at,
        },
      });
      // What is charged now: the proration lines, and a new period that starts now (a change of
      // cycle restarts it); the renewal lines of an ordinary upcoming invoice start later.
      const now = preview.lines.data.filter((line) => {
        const parent = line.parent;
        const proration =
          parent?.subscription_item_details?.proration ?? parent?.invoice_item_details?.proration ?? false;
        return proration || line.period.start === at;
      });
      const first = sub.items.data[0];
      const restarted = now.filter((line) => line.period.start === at).map((line) => line.period.end);
      const end = restarted.length ? Math.max(...restarted) : first?.current_period_end;
      return {
        amountNow: now.reduce((sum, line) => sum + line.amount, 0),
        periodEnd: end ? new Date(end * 1000) : null,
        prorationDate: at,
      };
    },

    async bookAtRenewal(subscriptionId, lines) {
      const sub = await stripe.subscriptions.retrieve(subscriptionId);
      // A booked change replaces one booked before.
      const schedule = sub.schedule
        ? await stripe.subscriptionSchedules.retrieve(idOf(sub.schedule) as string)
        : await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId });
      const current = schedule.phases[0];
      if (!current) throw new Error(`schedule ${schedule.id} has no phase`);
      await stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: 'release',
        phases: [
          {
            items: current.items.map((item) => ({
              price: idOf(item.price) as string,
              quantity: item.quantity ?? 1,
            })),
            start_date: current.start_date,
            end_date: current.end_date,
          },
          { items: await items(lines), duration: { interval: 'day', interval_count: 30 } },
        ],
      });
    },

    async releaseBooking(subscriptionId) {
      const sub = await stripe.subscriptions.retrieve(subscriptionId);
      if (sub.schedule) await stripe.subscriptionSchedules.release(idOf(sub.schedule) as string);
    },

    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      const sub = await stripe.subscriptions.retrieve(subscriptionId);
      // Stripe refuses cancel changes on a subscription a schedule manages: a booked change goes.
      if (sub.schedule) await stripe.subscriptionSchedules.release(idOf(sub.schedule) as string);
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
    },

    async cancelNow(subscriptionId, key) {
      const sub = await stripe.subscriptions.retrieve(subscriptionId);
      if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return;
      await stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: key });
    },

    verifyEvent(rawBody, signatureHeader) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader,
          options.webhookSecret,
          tolerance,
          undefined,
          options.clock.now().getTime(),
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new WebhookRefused(/tolerance/i.test(error.message) ? 'stale' : 'signature');
        }
        throw new WebhookRefused('malformed');
      }
      return toEvent(event);
    },
  };
}

function toEvent(event: Stripe.Event): ProviderEvent {
  const object = event.data.object as unknown as Record<string, unknown> & { object: string; id: string };
  let subscriptionId: string | null = null;
  let customerId: string | null = idOf(object.customer as string | { id: string } | null | undefined);
  if (object.object === 'subscription') subscriptionId = object.id;
  if (object.object === 'invoice') {
    const parent = object.parent as {
      subscription_details?: { subscription?: string | { id: string } };
    } | null;
    subscriptionId = idOf(parent?.subscription_details?.subscription);
  }
  if (object.object === 'subscription_schedule') {
    subscriptionId = idOf(
      (object.subscription ?? object.released_subscription) as string | { id: string } | null | undefined,
    );
  }
  if (object.object === 'customer') customerId = object.id;
  return { id: event.id, type: event.type, subscriptionId, customerId };
}

function toSubscription(sub: Stripe.Subscription): ProviderSubscription {
  const first = sub.items.data[0];
  return {
    id: sub.id,
    customerId: idOf(sub.customer) as string,
    status: sub.status as ProviderStatus,
    trialEnd: sub.trial_end ? new Date(sub.trial_end * 1000) : null,
    // Since API "basil" the period lives on the items.
    currentPeriodEnd: first ? new Date(first.current_period_end * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    lines: sub.items.data.map((item) => ({
      lookupKey: item.price.lookup_key ?? item.price.id,
      quantity: item.quantity ?? 1,
    })),
    scheduled: sub.schedule !== null,
  };
}

function idOf(ref: string | { id: string } | null | undefined): string | null {
  if (!ref) return null;
  return typeof ref === 'string' ? ref : ref.id;
}
