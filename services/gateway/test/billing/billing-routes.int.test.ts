import { accountHeld, holdLifted, trialEnded } from '@mimamori/events';
import type { BillingState, PlanCatalogue } from '@mimamori/http-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../accounts/test-browser.ts';
import { expectEveryApiRouteDescribed } from '../openapi-coverage.ts';
import { type BillingHarness, DAY, startBillingHarness, WEBHOOK_SECRET } from './billing-harness.ts';

let harness: BillingHarness;

beforeAll(async () => {
  harness = await startBillingHarness();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

const state = async (browser: TestBrowser) => {
  const response = await browser.get('/api/billing');
  expect(response.status, response.text).toBe(200);
  return response.body as unknown as BillingState;
};

const userInfo = async (browser: TestBrowser) =>
  (await browser.get('/api/user_info')).body as {
    subscription: { status: number; suspend_at: string | null; s_info: { Plan: number } | null };
    has_pi: boolean;
  };

/** The test card form's round trip: a SetupIntent, then the card confirmed with a Stripe test card. */
async function addTestCard(browser: TestBrowser, testCard: string) {
  const intent = await browser.post('/api/billing/setup_intent');
  expect(intent.status, intent.text).toBe(200);
  expect(String(intent.body.client_secret)).toContain('_secret_');
  const card = await browser.post('/api/billing/card', {
    setup_intent_id: intent.body.setup_intent_id,
    test_card: testCard,
  });
  expect(card.status, card.text).toBe(200);
  return card.body as unknown as BillingState;
}

/** What the account service told the target service about monitoring for one user, in order. */
async function monitoringEvents(userId: string) {
  const { rows } = await harness.testHost.db.query<{ subject: string; payload: Buffer }>(
    'SELECT subject, payload FROM account.outbox WHERE subject IN ($1, $2, $3) ORDER BY seq',
    [accountHeld.subject, holdLifted.subject, trialEnded.subject],
  );
  return rows
    .map((row) =>
      row.subject === accountHeld.subject
        ? { kind: 'held', ...accountHeld.decode(row.payload) }
        : row.subject === trialEnded.subject
          ? { kind: 'trial_ended', ...trialEnded.decode(row.payload) }
          : { kind: 'lifted', ...holdLifted.decode(row.payload) },
    )
    .filter((event) => event.userId === userId)
    .map((event) => ('reason' in event ? `held:${event.reason}` : event.kind));
}

/** Posts a webhook body byte for byte, as Stripe does: no session, no CSRF token. */
function postWebhook(payload: string, signature: string) {
  return harness.gateway.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload,
  });
}

function sign(payload: string, timestamp = harness.standIn.now, secret = WEBHOOK_SECRET) {
  return harness.stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

describe('the billing API description', () => {
  it('describes every billing route with its answers, the webhook (its own body parser) included', async () => {
    const document = await expectEveryApiRouteDescribed(harness.gateway.app);
    for (const path of [
      '/api/plans',
      '/api/billing',
      '/api/billing/plan/booked/cancel',
      '/api/stripe/webhook',
    ])
      expect(Object.keys(document.paths)).toContain(path);
  });
});

describe('the plan catalogue', () => {
  it('lists every sold plan with monthly and yearly JPY and USD prices, to anyone', async () => {
    const response = await harness.gateway.app.inject({ method: 'GET', url: '/api/plans' });
    expect(response.statusCode).toBe(200);
    const catalogue = response.json() as PlanCatalogue;
    expect(catalogue.plans.map((plan) => plan.plan)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(catalogue.plans.find((plan) => plan.plan === 3)).toMatchObject({
      name_key: 'plans.basic5',
      sites: 5,
      num: { _10min: 5, ss: 5 },
      prices: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } },
    });
    // Configuration prices no more than these: the rest is shown as not sold.
    expect(catalogue.plans.find((plan) => plan.plan === 11)?.prices).toBeNull();
    expect(catalogue.addons).toEqual([
      { addon: 'ss', prices: { month: { JPY: 300, USD: 200 }, year: { JPY: 3000, USD: 2000 } } },
    ]);
  });
});

describe('billing through the gateway on the Stripe stand-in', () => {
  it('refuses a signed-out caller and a state-changing call without the CSRF token', async () => {
    const stranger = await harness.gateway.app.inject({ method: 'GET', url: '/api/billing' });
    expect(stranger.statusCode).toBe(401);
    const { browser } = await harness.member('csrf@example.jp');
    const forged = await harness.gateway.app.inject({
      method: 'POST',
      url: '/api/billing/setup_intent',
      cookies: Object.fromEntries(browser.cookies),
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ error: { code: 'csrf_failed' } });
  });

  it('signup: the language fixes the currency; a trial without a card offers the test card form', async () => {
    const { browser } = await harness.member('trial-ja@example.jp', 'ja');
    const trial = await state(browser);
    expect(trial).toMatchObject({
      status: 1,
      currency: 'JPY',
      plan: { plan: 3, cycle: 'month', options: [] },
      booked: null,
      cancel_at_period_end: false,
      has_pi: false,
      card: null,
      card_form: {
        kind: 'test_cards',
        cards: ['pm_card_visa', 'pm_card_mastercard', 'pm_card_chargeCustomerFail'],
      },
    });
    expect(Date.parse(trial.suspend_at ?? '')).toBe((harness.standIn.now + 14 * DAY) * 1000);
    const { browser: english } = await harness.member('trial-en@example.com', 'en');
    expect(await state(english)).toMatchObject({ status: 1, currency: 'USD' });
    // Stripe bills in that currency from then on: the account's currency cannot change.
    expect(await english.post('/api/account/update', { currency: 'JPY' })).toMatchObject({
      status: 400,
      body: { error: { code: 'currency_fixed' } },
    });
    expect(await english.post('/api/account/update', { currency: 'USD', name: 'Kai' })).toMatchObject({
      status: 200,
      body: { currency: 'USD', name: 'Kai' },
    });
  });

  it('status 1 → trial ends without a card → 7, monitoring stopped → card → 2, hold lifted', async () => {
    const { browser, userId } = await harness.member('paused@example.jp');
    // During the trial a change asked for the renewal applies at once.
    const changed = await browser.post('/api/billing/plan', { plan: 5, cycle: 'month', timing: 'renewal' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ status: 1, plan: { plan: 5 }, booked: null });
    expect((await userInfo(browser)).subscription.s_info?.Plan).toBe(5);
    expect(await harness.mailSubjects('paused@example.jp', /プランを変更/)).toContain(
      '【Mimamori】プランを変更しました',
    );

    // Stripe's reminder three days before the trial ends asks for a card by mail.
    await harness.advanceDays(12);
    expect(await harness.mailSubjects('paused@example.jp', /3日後/)).toContain(
      '【Mimamori】無料トライアルは3日後に終了します',
    );
    await harness.advanceDays(3);
    expect(await state(browser)).toMatchObject({ status: 7, has_pi: false, suspend_at: null });
    expect(await userInfo(browser)).toMatchObject({ subscription: { status: 7 }, has_pi: false });
    // Told once, by billing or by the trial sweeper, whichever saw the trial's end first.
    const stopped = await monitoringEvents(userId);
    expect([['held:trial_ended'], ['trial_ended']]).toContainEqual(stopped);
    expect(await harness.mailSubjects('paused@example.jp', /トライアルが終了/)).toEqual([
      '【Mimamori】プランを変更しました',
      '【Mimamori】無料トライアルは3日後に終了します',
      '【Mimamori】無料トライアルが終了し、監視を停止しました',
    ]);
    // Plan change and cancel need the subscription renewed first.
    const refused = await browser.post('/api/billing/plan', { plan: 3, cycle: 'month', timing: 'now' });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'renew_first' } } });
    expect(await browser.post('/api/billing/plan/preview', { plan: 5, cycle: 'month' })).toMatchObject({
      status: 409,
      body: { error: { code: 'renew_first' } },
    });
    expect(await browser.post('/api/billing/reprocess')).toMatchObject({
      status: 409,
      body: { error: { code: 'no_card' } },
    });

    const carded = await addTestCard(browser, 'pm_card_visa');
    expect(carded).toMatchObject({
      status: 2,
      has_pi: true,
      card: { brand: 'visa', last4: '4242' },
    });
    expect(carded.card?.exp_year).toBeGreaterThan(2000);
    expect(await userInfo(browser)).toMatchObject({ subscription: { status: 2 }, has_pi: true });
    await harness.standIn.delivered();
    expect(await monitoringEvents(userId)).toEqual([...stopped, 'lifted']);
  });

  it('status 1 with a card → 2; plan now with proration, booked for renewal, booked change dropped', async () => {
    const { browser } = await harness.member('plans@example.jp');
    expect(await addTestCard(browser, 'pm_card_mastercard')).toMatchObject({ status: 1, has_pi: true });
    await harness.advanceDays(15);
    expect(await state(browser)).toMatchObject({ status: 2, plan: { plan: 3 } });

    const bad = await browser.post('/api/billing/plan', { plan: 3, cycle: 'week', timing: 'now' });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_plan' } } });
    // Only what configuration prices can be bought: Advanced (11) and the chat add-on are not here.
    expect(
      await browser.post('/api/billing/plan', { plan: 11, cycle: 'month', timing: 'now' }),
    ).toMatchObject({
      status: 409,
      body: { error: { code: 'plan_not_sold' } },
    });
    expect(
      await browser.post('/api/billing/plan', { plan: 2, cycle: 'month', options: ['line'], timing: 'now' }),
    ).toMatchObject({ status: 409, body: { error: { code: 'plan_not_sold' } } });
    const noTiming = await browser.post('/api/billing/plan', { plan: 5, cycle: 'month' });
    expect(noTiming).toMatchObject({ status: 400, body: { error: { code: 'invalid_timing' } } });

    // The price of changing now is shown before it is made, and asking changes nothing.
    expect(await browser.post('/api/billing/plan/preview', { plan: 3, cycle: 'week' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_plan' } },
    });
    const preview = await browser.post('/api/billing/plan/preview', { plan: 5, cycle: 'month' });
    expect(preview).toMatchObject({ status: 200, body: { currency: 'JPY', trial: false } });
    expect((preview.body as { amount_now: number }).amount_now).toBeGreaterThan(0);
    expect(await state(browser)).toMatchObject({ plan: { plan: 3 } });

    const now = await browser.post('/api/billing/plan', { plan: 5, cycle: 'month', timing: 'now' });
    expect(now).toMatchObject({ status: 200, body: { status: 2, plan: { plan: 5 }, booked: null } });
    const booked = await browser.post('/api/billing/plan', { plan: 3, cycle: 'year', timing: 'renewal' });
    expect(booked).toMatchObject({
      status: 200,
      body: { plan: { plan: 5, cycle: 'month' }, booked: { plan: 3, cycle: 'year' } },
    });
    const dropped = await browser.post('/api/billing/plan/booked/cancel');
    expect(dropped).toMatchObject({ status: 200, body: { plan: { plan: 5 }, booked: null } });
    expect(await browser.post('/api/billing/plan/booked/cancel')).toMatchObject({
      status: 409,
      body: { error: { code: 'nothing_booked' } },
    });
    await harness.advanceDays(30);
    expect(await state(browser)).toMatchObject({ status: 2, plan: { plan: 5 }, booked: null });
  });

  it('status 2 cancelling: the questionnaire is kept, undo until the period end, then status 9', async () => {
    const { browser, userId } = await harness.member('cancel@example.jp');
    await addTestCard(browser, 'pm_card_visa');
    await harness.advanceDays(15);
    expect(await browser.post('/api/billing/cancel', { reasons: [], comment: '' })).toMatchObject({
      status: 400,
      body: { error: { code: 'cancellation_reason_required' } },
    });
    expect(await browser.post('/api/billing/cancel', { reasons: ['cheaper'] })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_cancellation_reason' } },
    });
    expect(await browser.post('/api/billing/cancel/undo')).toMatchObject({
      status: 409,
      body: { error: { code: 'not_cancelling' } },
    });
    const cancelling = await browser.post('/api/billing/cancel', {
      reasons: ['too_expensive', 'other'],
      comment: '高い',
    });
    expect(cancelling).toMatchObject({ status: 200, body: { status: 2, cancel_at_period_end: true } });
    const { rows } = await harness.testHost.db.query(
      'SELECT reasons, comment FROM account.cancellation_feedback WHERE user_id = $1',
      [userId],
    );
    expect(rows).toEqual([{ reasons: ['too_expensive', 'other'], comment: '高い' }]);
    expect(await harness.mailSubjects('cancel@example.jp', /解約/)).toEqual([
      '【Mimamori】解約を受け付けました',
    ]);
    const undone = await browser.post('/api/billing/cancel/undo');
    expect(undone).toMatchObject({ status: 200, body: { status: 2, cancel_at_period_end: false } });

    await browser.post('/api/billing/cancel', { reasons: ['no_longer_needed'] });
    await harness.advanceDays(31);
    expect(await state(browser)).toMatchObject({ status: 9, cancel_at_period_end: true });
    expect(await monitoringEvents(userId)).toEqual(['held:ended']);
  });

  it('status 6 with a card → reprocess → 2; later past suspend_at → 7 → card update lifts the hold', async () => {
    const { browser, userId } = await harness.member('renewal@example.jp');
    await addTestCard(browser, 'pm_card_chargeCustomerFail');
    await harness.advanceDays(15);
    const failed = await state(browser);
    expect(failed).toMatchObject({ status: 6, has_pi: true, card: { last4: '0341' } });
    expect(Date.parse(failed.suspend_at ?? '')).toBe((harness.standIn.now + 7 * DAY) * 1000);
    expect(await harness.mailSubjects('renewal@example.jp', /お支払い/)).toEqual([
      '【Mimamori】お支払いができませんでした',
    ]);
    expect(await userInfo(browser)).toMatchObject({
      subscription: { status: 6, suspend_at: failed.suspend_at },
      has_pi: true,
    });
    expect(await browser.post('/api/billing/cancel', { reasons: ['other'] })).toMatchObject({
      status: 409,
      body: { error: { code: 'renew_first' } },
    });

    const declined = await browser.post('/api/billing/reprocess');
    expect(declined).toMatchObject({ status: 200, body: { paid: false, billing: { status: 6 } } });
    const { rows } = await harness.testHost.db.query<{ customer_id: string }>(
      'SELECT customer_id FROM account.billing_accounts WHERE user_id = $1',
      [userId],
    );
    const customer = await harness.stripe.customers.retrieve(String(rows[0]?.customer_id));
    const pm = String('deleted' in customer ? '' : customer.invoice_settings.default_payment_method);
    harness.standIn.setCardDeclines(pm, false);
    const paid = await browser.post('/api/billing/reprocess');
    expect(paid).toMatchObject({
      status: 200,
      body: { paid: true, billing: { status: 2, suspend_at: null } },
    });

    harness.standIn.setCardDeclines(pm, true);
    await harness.advanceDays(30);
    expect((await state(browser)).status).toBe(6);
    await harness.advanceDays(8);
    // The account sweeper holds the account once suspend_at has passed.
    let held = await state(browser);
    for (let attempt = 0; attempt < 100 && held.status !== 7; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      held = await state(browser);
    }
    expect(held).toMatchObject({ status: 7, has_pi: true });
    expect(await userInfo(browser)).toMatchObject({ subscription: { status: 7 }, has_pi: true });
    expect(await harness.mailSubjects('renewal@example.jp', /保留/)).toEqual([
      '【Mimamori】お支払いができませんでした',
      '【Mimamori】お支払いができませんでした',
      '【Mimamori】アカウントを保留にしました',
    ]);

    const lifted = await addTestCard(browser, 'pm_card_visa');
    expect(lifted).toMatchObject({ status: 2, card: { brand: 'visa', last4: '4242' } });
    await harness.standIn.delivered();
    expect(await monitoringEvents(userId)).toEqual(['held:renewal_unpaid', 'lifted']);
  });

  it('refuses another account’s setup intent and an unknown test card', async () => {
    const { browser: alice } = await harness.member('alice-card@example.jp');
    const { browser: bob } = await harness.member('bob-card@example.jp');
    const intent = await alice.post('/api/billing/setup_intent');
    const stolen = await bob.post('/api/billing/card', {
      setup_intent_id: intent.body.setup_intent_id,
      test_card: 'pm_card_visa',
    });
    expect(stolen).toMatchObject({ status: 409, body: { error: { code: 'no_card' } } });
    expect(await state(alice)).toMatchObject({ has_pi: false });
    expect(await state(bob)).toMatchObject({ has_pi: false });
    const unknown = await bob.post('/api/billing/card', { setup_intent_id: 'seti_x', test_card: '4242' });
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'invalid_test_card' } } });
  });

  it('applies a custom plan with its add-ons as quantities; the limits follow it', async () => {
    const { browser } = await harness.member('custom@example.jp');
    const custom = await browser.post('/api/billing/plan', {
      plan: 2,
      cycle: 'month',
      options: ['ss'],
      timing: 'now',
    });
    expect(custom).toMatchObject({ status: 200, body: { plan: { plan: 2, options: ['ss'] } } });
    expect((await browser.get('/api/user_info')).body).toMatchObject({
      subscription: { s_info: { Plan: 2, Options: ['ss'] } },
      num: { _60min: 5, ss: 5 },
    });
    const ssAddon = await browser.post('/api/billing/plan', {
      plan: 3,
      cycle: 'month',
      options: ['ss'],
      timing: 'now',
    });
    expect(ssAddon).toMatchObject({ status: 400, body: { error: { code: 'invalid_options' } } });
  });

  it('asks for the Project plan through support', async () => {
    const { browser } = await harness.member('project@example.jp');
    expect(await browser.post('/api/billing/project_request', { sites: 20 })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_sites' } },
    });
    const asked = await browser.post('/api/billing/project_request', { sites: 1500, notes: 'EC' });
    expect(asked.status, asked.text).toBe(201);
    expect(String(asked.body.request_id)).toMatch(/^[\w-]{8,}$/);
  });
});

describe('the Stripe webhook', () => {
  it('refuses a forged signature, a tampered body, a stale timestamp and no signature; a redelivery changes nothing', async () => {
    const { browser, userId } = await harness.member('webhook@example.jp');
    await addTestCard(browser, 'pm_card_chargeCustomerFail');
    await harness.advanceDays(15);
    expect((await state(browser)).status).toBe(6);
    const failedEvent = harness.standIn.events.find(
      (event) => event.type === 'invoice.payment_failed' && harness.standIn.now - event.created < DAY,
    );
    expect(failedEvent).toBeDefined();
    const payload = JSON.stringify(failedEvent);
    const heldBefore = await monitoringEvents(userId);

    const forged = await postWebhook(payload, sign(payload, harness.standIn.now, 'whsec_someone_else'));
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ error: { code: 'signature' } });
    const tampered = await postWebhook(payload.replace('payment_failed', 'paid'), sign(payload));
    expect(tampered.json()).toMatchObject({ error: { code: 'signature' } });
    const stale = await postWebhook(payload, sign(payload, harness.standIn.now - 301));
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ error: { code: 'stale' } });
    const unsigned = await postWebhook(payload, '');
    expect(unsigned.statusCode).toBe(400);

    // The stand-in delivered this event already: a replay is recognised by its id.
    const replay = await postWebhook(payload, sign(payload));
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ outcome: 'duplicate' });
    const { rows } = await harness.testHost.db.query(
      'SELECT count(*)::int AS n FROM account.billing_webhook_events WHERE event_id = $1',
      [failedEvent?.id],
    );
    expect(rows[0]).toEqual({ n: 1 });
    expect(await monitoringEvents(userId)).toEqual(heldBefore);
  });

  it('is safe out of order: an old copy of the subscription under a new event id leaves Stripe’s state', async () => {
    const { browser, userId } = await harness.member('order@example.jp');
    await addTestCard(browser, 'pm_card_visa');
    await harness.advanceDays(15);
    expect((await state(browser)).status).toBe(2);
    // The trial's subscription as an early event carried it, delivered late under a fresh id.
    const early = harness.standIn.events.find(
      (event) =>
        event.type === 'customer.subscription.created' &&
        (event.data.object as { metadata?: { account_id?: string } }).metadata?.account_id === userId,
    );
    expect(early?.data.object).toMatchObject({ status: 'trialing' });
    const late = JSON.stringify({ ...early, id: `evt_late_${userId.slice(0, 8)}` });
    const applied = await postWebhook(late, sign(late));
    expect(applied.json()).toEqual({ outcome: 'applied' });
    expect(await state(browser)).toMatchObject({ status: 2, suspend_at: null });
    // The same late event twice: applied once.
    expect((await postWebhook(late, sign(late))).json()).toEqual({ outcome: 'duplicate' });
    expect(await monitoringEvents(userId)).toEqual([]);
  });

  it('answers an event about no account of ours as ignored', async () => {
    const payload = JSON.stringify({
      id: 'evt_foreign',
      object: 'event',
      type: 'customer.subscription.updated',
      created: harness.standIn.now,
      data: { object: { id: 'sub_foreign', object: 'subscription', customer: 'cus_foreign' } },
    });
    const answer = await postWebhook(payload, sign(payload));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ outcome: 'ignored' });
  });
});
