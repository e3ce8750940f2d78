import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status } from '@grpc/grpc-js';
import { accountV1, billingV1 } from '@mimamori/contracts';
import { accountHeld, accountMailRequested, holdLifted, planChanged } from '@mimamori/events';
import { billingCatalogue, parsePlanPrices } from '@mimamori/plans';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { type StandInEvent, StripeStandIn } from '@mimamori/stripe-stand-in';
import { startTestServiceHost, type TestServiceHost } from '@mimamori/test-fixtures';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripe, stripeBilling } from './clients/stripe-billing.ts';
import { syncStripePrices } from './clients/stripe-prices.ts';
import { type BillingActions, billingActions } from './domain/billing/billing-actions.ts';
import { WebhookRefused } from './domain/billing/billing-ports.ts';
import { hashSessionToken } from './domain/session-token.ts';
import { createAccountService } from './service.ts';
import { createBillingStore } from './store/billing-store.ts';
import { createTrialStore } from './store/trial-store.ts';

const DAY = 86_400;
const SECRET = 'whsec_billing_test';
const KEY = 'sk_test_billing';
const PRICES = parsePlanPrices(
  JSON.stringify({
    3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } },
    5: { month: { JPY: 2980, USD: 2000 }, year: { JPY: 29800, USD: 20000 } },
  }),
);

let testHost: TestServiceHost;
let standIn: StripeStandIn;
let stripe: Stripe;
let billing: BillingActions;
let client: accountV1.AccountServiceClient;
let billingClient: billingV1.BillingServiceClient;
let receiver: Server;
let receiverUrl: string;
/** What the endpoint answered each delivery, the way the gateway will. */
const outcomes: string[] = [];

beforeAll(async () => {
  testHost = await startTestServiceHost('billing-test');
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      outcomes.push(
        await billing.handleWebhook(
          Buffer.concat(chunks).toString(),
          String(req.headers['stripe-signature']),
        ),
      );
      res.writeHead(200).end();
    } catch (error) {
      outcomes.push(error instanceof WebhookRefused ? `refused:${error.reason}` : 'error');
      res.writeHead(error instanceof WebhookRefused ? 400 : 500).end();
    }
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  standIn = new StripeStandIn({ webhookUrl: receiverUrl, webhookSecret: SECRET });
  const { port } = await standIn.listen();
  const apiBase = `http://127.0.0.1:${port}`;
  stripe = createStripe(KEY, apiBase);
  await syncStripePrices(stripe, billingCatalogue(PRICES, {}));

  // Billing's time is the stand-in's, so a trial ends for both at once.
  const clock = { now: () => new Date(standIn.now * 1000) };
  const provider = stripeBilling({ secretKey: KEY, webhookSecret: SECRET, apiBase, clock });
  const renewalGraceMs = 7 * DAY * 1000;
  const running = await runService(
    createAccountService({
      db: testHost.db,
      logger: testHost.logger,
      secretBox: createSecretBox(generateSecretKey('test')),
      clock,
      prices: PRICES,
      // The test moves time itself; the sweeper must not race it.
      sweepIntervalMs: 3_600_000,
      billing: { provider, renewalGraceMs },
    }),
    testHost.host,
  );
  client = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  billingClient = createGrpcClient(billingV1.BillingServiceClient, running.grpcAddress);
  billing = billingActions({
    provider,
    store: createBillingStore(testHost.db, { trialGraceMs: 30 * DAY * 1000, now: clock.now }),
    clock,
    renewalGraceMs,
  });
});

afterAll(async () => {
  await standIn?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await testHost?.close();
});

async function signUp(email: string): Promise<string> {
  const { userId } = await unary(client, 'createAccount', { email, password: 'abcd1234', lang: 'ja' });
  // Signup's billing side runs off accounts.created.
  for (let attempt = 0; attempt < 100; attempt++) {
    const { rows } = await testHost.db.query('SELECT 1 FROM account.billing_accounts WHERE user_id = $1', [
      userId,
    ]);
    if (rows.length) return userId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('billing never started for the new account');
}

/** The browser's part of adding a card, as the test form does it: confirm with a Stripe test card. */
async function addCard(userId: string, card: string) {
  const intent = await billing.createSetupIntent(userId);
  await stripe.setupIntents.confirm(intent.id, { payment_method: card });
  return billing.confirmCard(userId, intent.id);
}

async function advanceDays(days: number) {
  standIn.advanceTo(standIn.now + days * DAY);
  await standIn.delivered();
}

async function productRow(userId: string) {
  const { rows } = await testHost.db.query<{
    status: number;
    has_card: boolean;
    delete_at: Date | null;
    plan: number;
  }>('SELECT status, has_card, delete_at, plan FROM account.subscriptions WHERE user_id = $1', [userId]);
  return rows[0];
}

/** Events billing wrote for the target service, by kind, for one user. */
async function monitoringEvents(userId: string) {
  const { rows } = await testHost.db.query<{ subject: string; payload: Buffer }>(
    'SELECT subject, payload FROM account.outbox WHERE subject IN ($1, $2) ORDER BY seq',
    [accountHeld.subject, holdLifted.subject],
  );
  return rows
    .map((row) =>
      row.subject === accountHeld.subject
        ? { kind: 'held', ...accountHeld.decode(row.payload) }
        : { kind: 'lifted', ...holdLifted.decode(row.payload) },
    )
    .filter((event) => event.userId === userId)
    .map((event) => ('reason' in event ? `held:${event.reason}` : event.kind));
}

/** The plans accounts.plan_changed announced for one user, in order. */
async function planEvents(userId: string) {
  const { rows } = await testHost.db.query<{ payload: Buffer }>(
    'SELECT payload FROM account.outbox WHERE subject = $1 ORDER BY seq',
    [planChanged.subject],
  );
  return rows
    .map((row) => planChanged.decode(row.payload))
    .filter((event) => event.userId === userId)
    .map((event) => event.plan);
}

/** The billing mails the account service asked the notifier to send one user, in order. */
async function billingMails(userId: string) {
  const { rows } = await testHost.db.query<{ payload: Buffer }>(
    'SELECT payload FROM account.outbox WHERE subject = $1 ORDER BY seq',
    [accountMailRequested.subject],
  );
  return rows
    .map((row) => accountMailRequested.decode(row.payload))
    .filter((event) => event.userId === userId && event.eventId.startsWith('billing-mail:'))
    .map((event) => ({ kind: event.kind, plan: event.plan, date: event.billingDate ?? null }));
}

const mailKinds = async (userId: string) => (await billingMails(userId)).map((mail) => mail.kind);

async function sessionFor(userId: string): Promise<string> {
  const token = `session-${userId}`;
  await testHost.db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    // Live by billing's clock, which the tests move ahead.
    [hashSessionToken(token), userId, new Date((standIn.now + 365 * DAY) * 1000)],
  );
  return token;
}

function sign(payload: string, timestamp = standIn.now): string {
  return stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp });
}

describe('billing on the Stripe stand-in, PostgreSQL and JetStream', () => {
  it('prices are created once: running the price script again keeps them', async () => {
    const again = await syncStripePrices(stripe, billingCatalogue(PRICES, {}));
    expect(again.created).toEqual([]);
    expect(again.kept).toContain('plan3_month_jpy');
  });

  it('signup → trial → paused at its end, monitoring stopped → card → resumed, hold lifted', async () => {
    const userId = await signUp('trial@example.jp');
    const trial = await billing.state(userId);
    expect(trial).toMatchObject({ status: 1, providerStatus: 'trialing', card: null, currency: 'JPY' });
    expect(trial.suspendAt?.getTime()).toBe((standIn.now + 14 * DAY) * 1000);

    await advanceDays(15);
    expect(await billing.state(userId)).toMatchObject({ status: 7, providerStatus: 'paused' });
    const held = await productRow(userId);
    expect(held).toMatchObject({ status: 7, has_card: false });
    expect(held?.delete_at).not.toBeNull();
    expect(await monitoringEvents(userId)).toEqual(['held:trial_ended']);

    const after = await addCard(userId, 'pm_card_visa');
    expect(after).toMatchObject({
      status: 2,
      providerStatus: 'active',
      card: { brand: 'visa', last4: '4242' },
    });
    expect(await productRow(userId)).toMatchObject({ status: 2, has_card: true, delete_at: null });
    await standIn.delivered();
    // Webhooks for the same changes arrived too; nothing is counted twice.
    expect(await monitoringEvents(userId)).toEqual(['held:trial_ended', 'lifted']);
    // The lifted hold is told once: the sites stay paused until the user resumes them.
    expect(await mailKinds(userId)).toEqual(['trial_ended_no_card', 'hold_lifted']);
  });

  it('an account cancelled at its delete date ends its paused subscription at Stripe', async () => {
    const userId = await signUp('expired@example.jp');
    const { subscriptionId } = await billing.state(userId);
    await advanceDays(15);
    const deleteAt = (await productRow(userId))?.delete_at;
    expect(deleteAt).toBeInstanceOf(Date);
    // The trial sweeper's own step, at the delete date.
    expect(await createTrialStore(testHost.db).cancelUnpaidHolds(deleteAt as Date)).toContain(userId);
    for (let attempt = 0; attempt < 100; attempt++) {
      if ((await stripe.subscriptions.retrieve(subscriptionId)).status === 'canceled') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('canceled');
    await standIn.delivered();
    expect(await billing.state(userId)).toMatchObject({ status: 9, providerStatus: 'canceled' });
    // The hold was told once; the end adds no second stop.
    expect(await monitoringEvents(userId)).toEqual(['held:trial_ended']);
  });

  it('renewal failure → 6 → reprocess → 2; later past suspend_at → 7 → card update lifts the hold', async () => {
    const userId = await signUp('renewal@example.jp');
    await addCard(userId, 'pm_card_chargeCustomerFail');
    await advanceDays(15);
    const failed = await billing.state(userId);
    expect(failed).toMatchObject({ status: 6, providerStatus: 'past_due', card: { last4: '0341' } });
    expect(failed.suspendAt?.getTime()).toBe((standIn.now + 7 * DAY) * 1000);
    const { userInfo } = await unary(client, 'getUserInfo', { sessionToken: await sessionFor(userId) });
    expect(userInfo?.subscription).toMatchObject({ status: 6, suspendAt: failed.suspendAt });
    expect(userInfo?.hasPi).toBe(true);

    expect((await billing.reprocess(userId)).paid).toBe(false);
    expect((await billing.state(userId)).status).toBe(6);
    const customer = (await stripe.customers.retrieve(failed.customerId)) as Stripe.Customer;
    const pm = customer.invoice_settings.default_payment_method as string;
    standIn.setCardDeclines(pm, false);
    const retried = await billing.reprocess(userId);
    expect(retried.paid).toBe(true);
    expect(retried.record).toMatchObject({ status: 2, suspendAt: null });

    standIn.setCardDeclines(pm, true);
    await advanceDays(30);
    expect((await billing.state(userId)).status).toBe(6);
    await advanceDays(6);
    expect(await billing.sweepHolds()).toEqual([]);
    await advanceDays(2);
    expect(await billing.sweepHolds()).toEqual([userId]);
    expect(await billing.sweepHolds()).toEqual([]);
    expect((await productRow(userId))?.status).toBe(7);

    const lifted = await addCard(userId, 'pm_card_mastercard');
    expect(lifted).toMatchObject({ status: 2, card: { brand: 'mastercard', last4: '4444' } });
    await standIn.delivered();
    expect(await monitoringEvents(userId)).toEqual(['held:renewal_unpaid', 'lifted']);
    // A renewal failure cleared by a payment (6 → 2) is no hold: only the lift of 7 is told.
    expect(await mailKinds(userId)).toEqual([
      'payment_failed',
      'payment_failed',
      'account_held',
      'hold_lifted',
    ]);
  });

  it('changes the plan at once during the trial, cancels at period end and undoes it', async () => {
    const userId = await signUp('plans@example.jp');
    // During the trial a change costs nothing now, and the trial goes on to its end.
    const free = await billing.previewPlanChange(userId, { plan: 5, cycle: 'month', options: [] });
    expect(free).toMatchObject({ amountNow: 0, currency: 'JPY', trial: true });
    expect(free.periodEnd?.getTime()).toBe((await billing.state(userId)).suspendAt?.getTime());
    const changed = await billing.changePlan(userId, { plan: 5, cycle: 'month', options: [] }, 'renewal');
    expect(changed.current.plan).toBe(5);
    expect((await productRow(userId))?.plan).toBe(5);
    expect(await planEvents(userId)).toEqual([5]);
    await addCard(userId, 'pm_card_visa');
    const { subscriptionId } = await billing.state(userId);
    const from = standIn.events.length;
    const cancelling = await billing.cancel(userId, { reasons: ['too_expensive'], comment: '' });
    expect(cancelling.cancelAtPeriodEnd).toBe(true);
    const undone = await billing.undoCancel(userId);
    expect(undone.cancelAtPeriodEnd).toBe(false);
    await standIn.delivered();
    expect(await billingMails(userId)).toEqual([
      { kind: 'plan_changed', plan: 5, date: null },
      { kind: 'cancellation_confirmed', plan: 5, date: undone.periodEnd },
      // The renewal the undone cancellation keeps.
      { kind: 'cancellation_undone', plan: 5, date: undone.periodEnd },
    ]);
    // Stripe's events for the cancel and its undo, delivered again: each mail was sent once.
    const redelivered = standIn.events
      .slice(from)
      .filter((event) => (event.data.object as { id: string }).id === subscriptionId);
    expect(redelivered.length).toBeGreaterThan(0);
    for (const event of redelivered) {
      const body = JSON.stringify(event);
      expect(await billing.handleWebhook(body, sign(body))).toBe('duplicate');
    }
    expect(await mailKinds(userId)).toEqual([
      'plan_changed',
      'cancellation_confirmed',
      'cancellation_undone',
    ]);
  });

  it('an active plan changes now with proration, or at the renewal through a schedule; a cancel ends it at the period end', async () => {
    const userId = await signUp('active@example.jp');
    await addCard(userId, 'pm_card_visa');
    await advanceDays(15);
    const active = await billing.state(userId);
    expect(active).toMatchObject({ status: 2, current: { plan: 3 } });

    // Shown before it is made: a day of the 30-day period is used, so 29/30 of ¥2,980 − ¥980.
    const preview = await billing.previewPlanChange(userId, { plan: 5, cycle: 'month', options: [] });
    expect(preview).toEqual({
      amountNow: Math.round((2980 - 980) * (29 / 30)),
      currency: 'JPY',
      trial: false,
      periodEnd: active.periodEnd,
      prorationDate: standIn.now,
    });
    // Previewing changes nothing.
    expect(await billing.state(userId)).toMatchObject({ current: { plan: 3 } });
    // A yearly cycle restarts the period now: the year's price less the unused 29 days.
    const yearly = await billing.previewPlanChange(userId, { plan: 3, cycle: 'year', options: [] });
    expect(yearly.amountNow).toBe(9800 - Math.floor((980 * 29) / 30));
    expect(yearly.periodEnd?.getTime()).toBe((standIn.now + 365 * DAY) * 1000);

    // The user reads the price for a while: confirmed with the preview's moment, the charge is
    // the one shown, not a smaller one for the shorter rest of the period.
    await advanceDays(2);
    const upgraded = await billing.changePlan(
      userId,
      { plan: 5, cycle: 'month', options: [] },
      'now',
      preview.prorationDate,
    );
    expect(upgraded.current.plan).toBe(5);
    const paid = await stripe.invoices.list({ subscription: active.subscriptionId, status: 'paid' });
    // The proration for the rest of the period was billed at once, as previewed.
    expect(
      paid.data
        .filter((invoice) => invoice.billing_reason === 'subscription_update')
        .map((invoice) => invoice.amount_paid),
    ).toEqual([preview.amountNow]);

    const dropped = await billing.changePlan(userId, { plan: 3, cycle: 'year', options: [] }, 'renewal');
    expect(dropped.booked).toMatchObject({ plan: 3, cycle: 'year' });
    expect((await billing.cancelBookedChange(userId)).booked).toBeNull();
    const booked = await billing.changePlan(userId, { plan: 3, cycle: 'month', options: [] }, 'renewal');
    expect(booked).toMatchObject({ current: { plan: 5 }, booked: { plan: 3, cycle: 'month' } });
    expect((await productRow(userId))?.plan).toBe(5);
    // The same booking asked again is no new change.
    await billing.changePlan(userId, { plan: 3, cycle: 'month', options: [] }, 'renewal');
    await standIn.delivered();
    expect((await billingMails(userId)).slice(-3)).toEqual([
      // Each booking names the plan booked and the renewal it takes effect at.
      { kind: 'plan_change_booked', plan: 3, date: booked.periodEnd },
      { kind: 'booked_change_cancelled', plan: 5, date: null },
      { kind: 'plan_change_booked', plan: 3, date: booked.periodEnd },
    ]);
    await advanceDays(30);
    expect(await billing.state(userId)).toMatchObject({ status: 2, current: { plan: 3 }, booked: null });
    expect((await productRow(userId))?.plan).toBe(3);
    // The target service hears of each plan taking effect (history limits), not of the booking.
    expect(await planEvents(userId)).toEqual([5, 3]);
    expect((await billingMails(userId)).at(-1)).toEqual({ kind: 'plan_changed', plan: 3, date: null });

    expect(
      (await billing.cancel(userId, { reasons: ['too_expensive'], comment: '' })).cancelAtPeriodEnd,
    ).toBe(true);
    await advanceDays(31);
    expect(await billing.state(userId)).toMatchObject({ status: 9, providerStatus: 'canceled' });
    expect(await monitoringEvents(userId)).toEqual(['held:ended']);
  });

  it('serves billing over gRPC to the signed-in user, with refusals as problems', async () => {
    await expect(unary(billingClient, 'getBilling', { sessionToken: 'nobody' })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    const userId = await signUp('grpc@example.jp');
    const sessionToken = await sessionFor(userId);
    const { billing: trial } = await unary(billingClient, 'getBilling', { sessionToken });
    expect(trial).toMatchObject({
      status: 1,
      currency: 'JPY',
      plan: { plan: 3, cycle: 'month', options: [] },
    });
    expect(trial?.card).toBeUndefined();

    await expect(unary(billingClient, 'reprocess', { sessionToken })).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: 'no_card',
    });
    await expect(
      unary(billingClient, 'changePlan', {
        sessionToken,
        plan: { plan: 1, cycle: 'month', options: [] },
        timing: 'now',
        prorationDate: 0,
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: 'invalid_plan' });
    await expect(
      unary(billingClient, 'changePlan', {
        sessionToken,
        plan: { plan: 3, cycle: 'month', options: ['ss'] },
        timing: 'now',
        prorationDate: 0,
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: 'invalid_options' });

    const intent = await unary(billingClient, 'createSetupIntent', { sessionToken });
    expect(intent.clientSecret).toContain('_secret_');
    await stripe.setupIntents.confirm(intent.setupIntentId, { payment_method: 'pm_card_visa' });
    const { billing: carded } = await unary(billingClient, 'confirmCard', {
      sessionToken,
      setupIntentId: intent.setupIntentId,
    });
    expect(carded?.card).toMatchObject({ brand: 'visa', last4: '4242' });

    // The test card form: the same, with one of Stripe's test cards confirmed server-side.
    const second = await unary(billingClient, 'createSetupIntent', { sessionToken });
    await expect(
      unary(billingClient, 'confirmTestCard', {
        sessionToken,
        setupIntentId: second.setupIntentId,
        testCard: '4242',
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: 'invalid_test_card' });
    const { billing: tested } = await unary(billingClient, 'confirmTestCard', {
      sessionToken,
      setupIntentId: second.setupIntentId,
      testCard: 'pm_card_mastercard',
    });
    expect(tested?.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    // With a live key there is no test card form.
    const live = billingActions({
      provider: stripeBilling({
        secretKey: 'sk_live_x',
        webhookSecret: SECRET,
        clock: { now: () => new Date() },
      }),
      store: createBillingStore(testHost.db, { trialGraceMs: 0, now: () => new Date() }),
      clock: { now: () => new Date() },
      renewalGraceMs: 0,
    });
    await expect(live.confirmTestCard(userId, second.setupIntentId, 'pm_card_visa')).rejects.toMatchObject({
      reason: 'live_mode',
    });

    const body = JSON.stringify({ id: 'evt_grpc_forged', type: 'invoice.paid', data: { object: {} } });
    await expect(
      unary(billingClient, 'handleStripeWebhook', {
        rawBody: Buffer.from(body),
        signature: sign(body).replace(/v1=[0-9a-f]+/, `v1=${'a'.repeat(64)}`),
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: 'signature' });
    const { outcome } = await unary(billingClient, 'handleStripeWebhook', {
      rawBody: Buffer.from(body),
      signature: sign(body),
    });
    expect(outcome).toBe('ignored');
  });

  describe('webhooks', () => {
    const eventsFor = (subscriptionId: string, from: number) =>
      standIn.events
        .slice(from)
        .filter(
          (event) =>
            (event.data.object as { id: string }).id === subscriptionId &&
            event.type.startsWith('customer.subscription'),
        );

    it('refuses a forged signature and a stale timestamp, and applies an event once however often it comes', async () => {
      const userId = await signUp('hooks@example.jp');
      const { subscriptionId } = await billing.state(userId);
      const from = standIn.events.length;
      await advanceDays(15);
      const [paused] = eventsFor(subscriptionId, from).filter(
        (event) => event.type === 'customer.subscription.paused',
      );
      const body = JSON.stringify(paused);

      await expect(
        billing.handleWebhook(body.replace('"paused"', '"active"'), sign(body)),
      ).rejects.toMatchObject({
        reason: 'signature',
      });
      await expect(
        billing.handleWebhook(body, sign(body).replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`)),
      ).rejects.toMatchObject({
        reason: 'signature',
      });
      await expect(billing.handleWebhook(body, sign(body, standIn.now - 301))).rejects.toMatchObject({
        reason: 'stale',
      });
      // Delivered by the stand-in already; the same event again, and replayed later with a fresh signature.
      expect(await billing.handleWebhook(body, sign(body))).toBe('duplicate');
      await advanceDays(1);
      expect(await billing.handleWebhook(body, sign(body))).toBe('duplicate');
      const { rows } = await testHost.db.query(
        'SELECT 1 FROM account.billing_webhook_events WHERE event_id = $1',
        [paused?.id],
      );
      expect(rows).toHaveLength(1);
      expect(await monitoringEvents(userId)).toEqual(['held:trial_ended']);
    });

    it('events arriving out of order leave the state Stripe holds now', async () => {
      const userId = await signUp('order@example.jp');
      const { subscriptionId, customerId } = await billing.state(userId);
      // Deliveries are held back while the provider moves on: trial ends (paused), a card is added
      // and the subscription resumed outside the product.
      const held: StandInEvent[] = [];
      // Signup's own events first, or one handled late would read the paused subscription.
      await standIn.delivered();
      standIn.setWebhookUrl('http://127.0.0.1:9/unreachable');
      const from = standIn.events.length;
      await advanceDays(15);
      const intent = await stripe.setupIntents.create({ customer: customerId });
      const confirmed = await stripe.setupIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
      await stripe.customers.update(customerId, {
        invoice_settings: { default_payment_method: confirmed.payment_method as string },
      });
      await stripe.subscriptions.resume(subscriptionId);
      await standIn.delivered();
      standIn.setWebhookUrl(receiverUrl);
      held.push(...eventsFor(subscriptionId, from));
      expect(held.map((event) => event.type)).toEqual(
        expect.arrayContaining(['customer.subscription.paused', 'customer.subscription.resumed']),
      );

      const results = [];
      for (const event of [...held].reverse()) {
        const body = JSON.stringify(event);
        results.push(await billing.handleWebhook(body, sign(body)));
      }
      expect(results.every((result) => result === 'applied')).toBe(true);
      // The newest state won from the first event on: the hold was never recorded, nor sent.
      expect(await billing.state(userId)).toMatchObject({ status: 2, providerStatus: 'active' });
      expect(await monitoringEvents(userId)).toEqual([]);
      // And all of them again: nothing applied twice.
      for (const event of held) {
        const body = JSON.stringify(event);
        expect(await billing.handleWebhook(body, sign(body))).toBe('duplicate');
      }
    });

    it('the endpoint answers a forged delivery with 400', async () => {
      const body = JSON.stringify({
        id: 'evt_forged',
        type: 'customer.subscription.updated',
        data: { object: {} },
      });
      const response = await fetch(receiverUrl, {
        method: 'POST',
        headers: { 'stripe-signature': sign(body).replace(/v1=[0-9a-f]+/, `v1=${'f'.repeat(64)}`) },
        body,
      });
      expect(response.status).toBe(400);
      expect(outcomes.at(-1)).toBe('refused:signature');
    });
  });
});
