import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StripeStandIn } from './stand-in.ts';

const DAY = 86_400;
const SECRET = 'whsec_stand_in_test';
const START = 1_800_000_000;

let standIn: StripeStandIn;
let stripe: Stripe;
let receiver: Server;
let received: { header: string; body: string }[];

beforeEach(async () => {
  received = [];
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      header: String(req.headers['stripe-signature']),
      body: Buffer.concat(chunks).toString(),
    });
    res.end('{}');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  standIn = new StripeStandIn({ webhookUrl: url, webhookSecret: SECRET, now: START });
  const { host, port } = await standIn.listen();
  stripe = new Stripe('sk_test_stand_in', { host, port, protocol: 'http', maxNetworkRetries: 0 });
});

afterEach(async () => {
  await standIn.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function monthlyPrice(lookupKey: string, unitAmount: number, days = 30) {
  const product = await stripe.products.create({ id: `prod_${lookupKey}`, name: lookupKey });
  return stripe.prices.create({
    product: product.id,
    currency: 'jpy',
    unit_amount: unitAmount,
    recurring: { interval: 'day', interval_count: days },
    lookup_key: lookupKey,
  });
}

async function trialSubscription(price: string) {
  const customer = await stripe.customers.create({ email: 'a@example.com', metadata: { account_id: 'u1' } });
  const subscription = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price }],
    trial_period_days: 14,
    trial_settings: { end_behavior: { missing_payment_method: 'pause' } },
  });
  return { customer, subscription };
}

async function registerCard(customer: string, card: string) {
  const intent = await stripe.setupIntents.create({ customer, usage: 'off_session' });
  const confirmed = await stripe.setupIntents.confirm(intent.id, { payment_method: card });
  await stripe.customers.update(customer, {
    invoice_settings: { default_payment_method: confirmed.payment_method as string },
  });
  return confirmed.payment_method as string;
}

describe('the Stripe stand-in, through the real SDK', () => {
  it('finds prices by lookup key and refuses a second price with the same key', async () => {
    const price = await monthlyPrice('plan3_month_jpy', 980);
    const found = await stripe.prices.list({ lookup_keys: ['plan3_month_jpy'] });
    expect(found.data.map((p) => p.id)).toEqual([price.id]);
    expect(found.data[0]?.recurring).toEqual({ interval: 'day', interval_count: 30 });
    await expect(
      stripe.prices.create({
        product: price.product as string,
        currency: 'jpy',
        unit_amount: 1,
        lookup_key: 'plan3_month_jpy',
      }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400 });
    await expect(stripe.prices.retrieve('price_missing')).rejects.toMatchObject({
      code: 'resource_missing',
      statusCode: 404,
    });
  });

  it('replays an idempotent request and refuses the same key with other parameters', async () => {
    const first = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'signup:u1' });
    const again = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'signup:u1' });
    expect(again.id).toBe(first.id);
    await expect(
      stripe.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'signup:u1' }),
    ).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
    });
  });

  it('refuses a request without a secret key', async () => {
    const { host, port } = {
      host: '127.0.0.1',
      port: (standIn as unknown as { server: Server }).server.address() as AddressInfo,
    };
    const anonymous = new Stripe('pk_test_public', {
      host,
      port: port.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    await expect(anonymous.customers.create({})).rejects.toMatchObject({ statusCode: 401 });
  });

  it('pauses a trial that ends without a card, and resumes it once a card is the default', async () => {
    const price = await monthlyPrice('plan3_month_jpy', 980);
    const { customer, subscription } = await trialSubscription(price.id);
    expect(subscription.status).toBe('trialing');
    expect(subscription.trial_end).toBe(START + 14 * DAY);

    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: START });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + 15 * DAY });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('paused');

    const pm = await registerCard(customer.id, 'pm_card_visa');
    const card = await stripe.paymentMethods.retrieve(pm);
    expect(card.card).toMatchObject({ brand: 'visa', last4: '4242' });
    const resumed = await stripe.subscriptions.resume(
      subscription.id,
      { billing_cycle_anchor: { type: 'now' } },
      { idempotencyKey: 'r1' },
    );
    expect(resumed.status).toBe('active');
    const invoices = await stripe.invoices.list({ subscription: subscription.id, status: 'paid' });
    expect(invoices.data.map((inv) => inv.amount_paid)).toContain(980);

    await standIn.delivered();
    const types = received.map(({ body }) => JSON.parse(body).type);
    expect(types).toEqual(
      expect.arrayContaining([
        'customer.subscription.paused',
        'customer.subscription.resumed',
        'setup_intent.succeeded',
      ]),
    );
  });

  it('signs every event so the SDK verifies it, and a forged body fails', async () => {
    const price = await monthlyPrice('plan3_month_jpy', 980);
    await trialSubscription(price.id);
    await standIn.delivered();
    expect(received.length).toBeGreaterThan(0);
    for (const { header, body } of received) {
      const event = stripe.webhooks.constructEvent(body, header, SECRET, 300, undefined, START * 1000);
      expect(event.id).toMatch(/^evt_/);
    }
    const [first] = received;
    if (!first) throw new Error('no event delivered');
    expect(() =>
      stripe.webhooks.constructEvent(
        first.body.replace('"livemode":false', '"livemode":true'),
        first.header,
        SECRET,
        300,
        undefined,
        START * 1000,
      ),
    ).toThrow(/signature/i);
  });

  it('renews with a failing card into past_due, and paying the open invoice with a good card makes it active', async () => {
    const price = await monthlyPrice('plan3_month_jpy', 980);
    const { customer, subscription } = await trialSubscription(price.id);
    await registerCard(customer.id, 'pm_card_chargeCustomerFail');
    standIn.advanceTo(START + 15 * DAY);
    const failed = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    expect(failed.status).toBe('past_due');
    const invoice = failed.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe('open');
    await expect(stripe.invoices.pay(invoice.id as string)).rejects.toMatchObject({
      type: 'StripeCardError',
      code: 'card_declined',
    });

    await registerCard(customer.id, 'pm_card_visa');
    const paid = await stripe.invoices.pay(
      invoice.id as string,
      {},
      { idempotencyKey: `reprocess:${invoice.id}:1` },
    );
    expect(paid.status).toBe('paid');
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
  });

  it('prorates an immediate upgrade, and a schedule applies a booked change at renewal', async () => {
    const basic = await monthlyPrice('plan3_month_jpy', 3000);
    const bigger = await monthlyPrice('plan5_month_jpy', 6000);
    const customer = await stripe.customers.create({});
    await registerCard(customer.id, 'pm_card_visa');
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: basic.id }] });
    expect(sub.status).toBe('active');

    standIn.advanceTo(START + 15 * DAY);
    const [item] = sub.items.data;
    if (!item) throw new Error('subscription without items');
    // Previewed first, as the plan-change screen shows it: half the period left, half the difference.
    const preview = await stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, price: bigger.id }],
        proration_behavior: 'always_invoice',
        proration_date: START + 15 * DAY,
      },
    });
    expect(
      preview.lines.data.map((line) => [line.amount, line.parent?.subscription_item_details?.proration]),
    ).toEqual([[1500, true]]);
    expect((await stripe.subscriptions.retrieve(sub.id)).items.data[0]?.price.id).toBe(basic.id);
    // A yearly price restarts the period now: the year's price less the unused half month.
    const yearly = await monthlyPrice('plan3_year_jpy', 30000, 365);
    const restart = await stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, price: yearly.id }],
        proration_behavior: 'always_invoice',
        proration_date: START + 15 * DAY,
      },
    });
    expect(restart.lines.data.map((line) => [line.amount, line.period.start, line.period.end])).toEqual([
      [-1500, START + 15 * DAY, START + 30 * DAY],
      [30000, START + 15 * DAY, START + 380 * DAY],
    ]);
    // A proration date outside the period is refused, as Stripe does.
    await expect(
      stripe.subscriptions.update(sub.id, {
        items: [{ id: item.id, price: bigger.id }],
        proration_behavior: 'always_invoice',
        proration_date: START - DAY,
      }),
    ).rejects.toThrow(/proration_date/);
    // Confirmed a day after the preview, with its date: charged what the preview showed.
    standIn.advanceTo(START + 16 * DAY);
    const upgraded = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: bigger.id }],
      proration_behavior: 'always_invoice',
      proration_date: START + 15 * DAY,
    });
    expect(upgraded.items.data[0]?.price.id).toBe(bigger.id);
    const proration = await stripe.invoices.retrieve(upgraded.latest_invoice as string);
    expect(proration.amount_paid).toBe(1500);

    const schedule = await stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    const [phase] = schedule.phases;
    if (!phase) throw new Error('schedule without phases');
    await stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: 'release',
      phases: [
        {
          items: [{ price: bigger.id, quantity: 1 }],
          start_date: phase.start_date,
          end_date: phase.end_date,
        },
        { items: [{ price: basic.id, quantity: 1 }], duration: { interval: 'day', interval_count: 30 } },
      ],
    });
    await expect(stripe.subscriptions.update(sub.id, { cancel_at_period_end: true })).rejects.toThrow(
      /managed by the subscription schedule/,
    );

    standIn.advanceTo(START + 31 * DAY);
    const renewed = await stripe.subscriptions.retrieve(sub.id);
    expect(renewed.items.data[0]?.price.id).toBe(basic.id);
    expect(renewed.schedule).toBeNull();
  });

  it('cancels at the period end unless undone', async () => {
    const price = await monthlyPrice('plan3_month_jpy', 980);
    const customer = await stripe.customers.create({});
    await registerCard(customer.id, 'pm_card_visa');
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    await stripe.subscriptions.update(sub.id, { cancel_at_period_end: false });
    standIn.advanceTo(START + 31 * DAY);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    standIn.advanceTo(START + 61 * DAY);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled');
  });

  it('keeps one currency and one interval across a subscription', async () => {
    const monthly = await monthlyPrice('plan3_month_jpy', 980);
    const yearly = await monthlyPrice('plan3_year_jpy', 9800, 365);
    const customer = await stripe.customers.create({});
    await expect(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: monthly.id }, { price: yearly.id }],
      }),
    ).rejects.toThrow(/Currency and interval fields must match/);
  });

  it('issues numbered invoices with an inclusive tax rounded once per rate, and the name the customer had then', async () => {
    const plan = await monthlyPrice('plan3_month_jpy', 105);
    const addon = await monthlyPrice('addon_ss_month_jpy', 105);
    const rate = await stripe.taxRates.create({
      display_name: '消費税',
      percentage: 10,
      inclusive: true,
      country: 'JP',
      tax_type: 'jct',
    });
    expect((await stripe.taxRates.list({ active: true })).data.map((each) => each.id)).toEqual([rate.id]);
    const customer = await stripe.customers.create({ name: '株式会社みまもり' });
    await registerCard(customer.id, 'pm_card_visa');
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: plan.id, quantity: 2 }, { price: addon.id }],
      default_tax_rates: [rate.id],
    });
    await stripe.customers.update(customer.id, { name: 'Mimamori Inc.' });
    standIn.advanceTo(START + 31 * DAY);

    const invoices = (await stripe.invoices.list({ customer: customer.id })).data;
    expect(invoices.map((each) => each.status)).toEqual(['paid', 'paid']);
    const [first, second] = invoices as [Stripe.Invoice, Stripe.Invoice];
    expect(first.number).toMatch(/^[0-9A-F]{8}-0001$/);
    expect(second.number).toBe(first.number?.replace(/0001$/, '0002'));
    expect(first.customer_name).toBe('株式会社みまもり');
    expect(second.customer_name).toBe('Mimamori Inc.');
    expect(first.parent?.subscription_details?.subscription).toBe(sub.id);
    // 315 yen tax-inclusive: 315 × 10 / 110 = 28.6, one rounding for the rate gives 29; each
    // line's share rounded alone (210 → 19.1, 105 → 9.5) would add up to 29 only by chance.
    expect(first.total).toBe(315);
    expect(first.total_taxes).toEqual([
      expect.objectContaining({ amount: 29, tax_behavior: 'inclusive', taxable_amount: 286 }),
    ]);
    expect(first.lines.data.map((line) => [line.amount, line.taxes?.[0]?.amount])).toEqual([
      [210, 19],
      [105, 10],
    ]);
    expect(first.lines.data[0]?.pricing?.price_details?.product).toBe('prod_plan3_month_jpy');
    expect(first.status_transitions.paid_at).toBe(START);
  });
});
