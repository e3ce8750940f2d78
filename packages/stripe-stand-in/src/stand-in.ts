import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { decodeForm, type Form, type FormValue } from './form.ts';

/**
 * A local server that plays Stripe's API for the calls the product makes: customers, products and
 * prices, subscriptions (trial that pauses without a card, resume, update with proration, cancel at
 * period end), subscription schedules, setup intents, payment methods, invoices and test clocks.
 * It keeps its state in memory, answers in Stripe's wire format and sends signed webhook events.
 *
 * One clock drives every object: advancing any test clock (or `advanceTo`) moves all of them, which
 * is what a test of one account needs and keeps the server small.
 */
export interface StandInOptions {
  /** Where events are POSTed, signed with `webhookSecret`; none means events are only recorded. */
  webhookUrl?: string;
  webhookSecret?: string;
  /** Start time in Unix seconds; the wall clock unless set. */
  now?: number;
  /**
   * The clock keeps pace with the wall clock (each second), ahead by whatever the test clocks moved
   * it, as Stripe's own time does: for a product run by a person. Tests leave it frozen.
   */
  followWallClock?: boolean;
}

type Obj = Record<string, unknown> & { id: string; object: string };

export interface StandInEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Obj; previous_attributes?: Record<string, unknown> };
}

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }
}

const notFound = (kind: string, id: string) =>
  new StripeError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', 'id');
const invalid = (message: string, param?: string) =>
  new StripeError(400, 'invalid_request_error', message, 'parameter_invalid', param);

/** Test cards by the ids Stripe's test mode accepts; `declines` is a card that attaches but fails charges. */
const TEST_CARDS: Record<string, { brand: string; last4: string; declines: boolean }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', declines: false },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', declines: false },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', declines: true },
};

const DAY = 86_400;
const API_VERSION = Stripe.API_VERSION;

export class StripeStandIn {
  private readonly objects = new Map<string, Obj>();
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  private readonly declining = new Set<string>();
  private readonly trialWillEndSent = new Set<string>();
  private server: Server | null = null;
  private delivery: Promise<void> = Promise.resolve();
  private ticker: NodeJS.Timeout | null = null;
  /** How far ahead of the wall clock the test clocks moved time (followWallClock). */
  private ahead = 0;
  private readonly signer = new Stripe('sk_test_stand_in');
  readonly events: StandInEvent[] = [];
  now: number;

  constructor(private readonly options: StandInOptions = {}) {
    this.now = options.now ?? Math.floor(Date.now() / 1000);
  }

  async listen(port = 0): Promise<{ host: string; port: number }> {
    const server = createServer((req, res) => void this.serve(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    if (this.options.followWallClock) {
      this.ticker = setInterval(() => {
        const time = Math.floor(Date.now() / 1000) + this.ahead;
        if (time > this.now) this.advanceTo(time);
      }, 1000);
      this.ticker.unref();
    }
    return { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
  }

  async close(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    await this.delivered();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Resolves once every event sent so far has been answered by the webhook endpoint. */
  delivered(): Promise<void> {
    return this.delivery;
  }

  /** Test control: a card starts or stops declining charges (the bank said no, then yes). */
  setCardDeclines(paymentMethodId: string, declines: boolean): void {
    this.get('payment_method', paymentMethodId);
    if (declines) this.declining.add(paymentMethodId);
    else this.declining.delete(paymentMethodId);
  }

  setWebhookUrl(url: string): void {
    this.options.webhookUrl = url;
  }

  /** Moves the clock forward and lets trials end, periods renew and cancellations take effect. */
  advanceTo(time: number): void {
    if (time < this.now) throw invalid('The test clock can only move forward', 'frozen_time');
    this.now = time;
    this.ahead = Math.max(0, time - Math.floor(Date.now() / 1000));
    for (const sub of this.all('subscription')) this.runSubscription(sub);
    for (const clock of this.all('test_helpers.test_clock')) clock.frozen_time = time;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body =
      req.method === 'GET' || req.method === 'DELETE'
        ? url.search.slice(1)
        : Buffer.concat(chunks).toString();
    const send = (status: number, json: string) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
      });
      res.end(json);
    };
    if (!/^Bearer sk_test_/.test(req.headers.authorization ?? '')) {
      send(
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }),
      );
      return;
    }
    const key = req.headers['idempotency-key'];
    const fingerprint = `${req.method} ${url.pathname} ${body}`;
    if (typeof key === 'string' && req.method === 'POST') {
      const seen = this.idempotent.get(key);
      if (seen && seen.fingerprint !== fingerprint) {
        send(
          400,
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            },
          }),
        );
        return;
      }
      if (seen) {
        res.setHeader('idempotent-replayed', 'true');
        send(seen.status, seen.body);
        return;
      }
    }
    let status = 200;
    let json: string;
    try {
      const form = decodeForm(body);
      json = JSON.stringify(this.route(req.method ?? 'GET', url.pathname, form));
    } catch (error) {
      if (!(error instanceof StripeError)) throw error;
      status = error.status;
      json = JSON.stringify({
        error: {
          type: error.type,
          message: error.message,
          ...(error.code ? { code: error.code } : {}),
          ...(error.param ? { param: error.param } : {}),
          ...(error.declineCode ? { decline_code: error.declineCode } : {}),
        },
      });
    }
    if (typeof key === 'string' && req.method === 'POST')
      this.idempotent.set(key, { fingerprint, status, body: json });
    send(status, json);
  }

  private route(method: string, path: string, form: Form): unknown {
    const parts = path.replace(/^\/v1\//, '').split('/');
    const [resource, id, action] = parts;
    const expand = asList(form.expand).map(String);
    // A verb in the place of an id.
    if (method === 'POST' && resource === 'invoices' && id === 'create_preview' && !action)
      return this.previewInvoice(form);
    switch (`${method} ${resource}${id ? '/:id' : ''}${action ? `/${action}` : ''}`) {
      case 'POST customers':
        return this.createCustomer(form);
      case 'GET customers/:id':
        return this.get('customer', id as string);
      case 'POST customers/:id':
        return this.updateCustomer(id as string, form);
      case 'POST products':
        return this.createProduct(form);
      case 'GET products/:id':
        return this.get('product', id as string);
      case 'POST prices':
        return this.createPrice(form);
      case 'GET prices':
        return this.listPrices(form);
      case 'GET prices/:id':
        return this.get('price', id as string);
      case 'POST setup_intents':
        return this.createSetupIntent(form);
      case 'GET setup_intents/:id':
        return this.get('setup_intent', id as string);
      case 'POST setup_intents/:id/confirm':
        return this.confirmSetupIntent(id as string, form);
      case 'GET payment_methods/:id':
        return this.get('payment_method', id as string);
      case 'POST payment_methods/:id/attach':
        return this.attachPaymentMethod(id as string, str(form.customer));
      case 'POST subscriptions':
        return this.expand(this.createSubscription(form), expand);
      case 'GET subscriptions':
        return list(
          this.all('subscription').filter((sub) => !form.customer || sub.customer === form.customer),
        );
      case 'GET subscriptions/:id':
        return this.expand(this.get('subscription', id as string), expand);
      case 'POST subscriptions/:id':
        return this.expand(this.updateSubscription(id as string, form), expand);
      case 'POST subscriptions/:id/resume':
        return this.expand(this.resumeSubscription(id as string), expand);
      case 'DELETE subscriptions/:id':
        return this.cancelSubscription(this.get('subscription', id as string));
      case 'POST subscription_schedules':
        return this.createSchedule(form);
      case 'GET subscription_schedules/:id':
        return this.get('subscription_schedule', id as string);
      case 'POST subscription_schedules/:id':
        return this.updateSchedule(id as string, form);
      case 'POST subscription_schedules/:id/release':
        return this.releaseSchedule(id as string);
      case 'GET invoices':
        return list(
          this.all('invoice').filter(
            (inv) =>
              (!form.subscription || subscriptionOf(inv) === form.subscription) &&
              (!form.status || inv.status === form.status) &&
              (!form.customer || inv.customer === form.customer),
          ),
        );
      case 'GET invoices/:id':
        return this.get('invoice', id as string);
      case 'POST invoices/:id/pay':
        return this.payInvoiceOrThrow(id as string);
      case 'POST tax_rates':
        return this.createTaxRate(form);
      case 'GET tax_rates':
        return list(
          this.all('tax_rate').filter(
            (rate) => form.active === undefined || String(rate.active) === form.active,
          ),
        );
      case 'GET tax_rates/:id':
        return this.get('tax_rate', id as string);
      case 'GET events/:id':
        return this.events.find((event) => event.id === id) ?? this.get('event', id as string);
      default:
        if (resource === 'test_helpers' && id === 'test_clocks')
          return this.testClock(parts[2], parts[3], form, method);
        throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
    }
  }

  // --- customers, products, prices -------------------------------------------------------------

  private createCustomer(form: Form): Obj {
    return this.put({
      id: newId('cus'),
      object: 'customer',
      created: this.now,
      email: str(form.email) || null,
      name: str(form.name) || null,
      metadata: obj(form.metadata),
      preferred_locales: asList(form.preferred_locales),
      test_clock: str(form.test_clock) || null,
      invoice_settings: { default_payment_method: null },
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      next_invoice_sequence: 1,
      livemode: false,
    });
  }

  private updateCustomer(id: string, form: Form): Obj {
    const customer = this.get('customer', id);
    const settings = obj(form.invoice_settings);
    if (settings.default_payment_method !== undefined) {
      const pm = str(settings.default_payment_method);
      if (pm && this.get('payment_method', pm).customer !== id) {
        throw invalid(
          `The customer does not have a payment method with the ID ${pm}.`,
          'invoice_settings[default_payment_method]',
        );
      }
      customer.invoice_settings = { default_payment_method: pm || null };
    }
    if (form.metadata) customer.metadata = { ...obj(customer.metadata), ...obj(form.metadata) };
    if (form.email !== undefined) customer.email = str(form.email) || null;
    // Invoices copy the name when they are finalized; one already issued keeps the name it had.
    if (form.name !== undefined) customer.name = str(form.name) || null;
    this.emit('customer.updated', customer);
    return customer;
  }

  private createProduct(form: Form): Obj {
    const id = str(form.id) || newId('prod');
    if (this.objects.has(id))
      throw new StripeError(
        400,
        'invalid_request_error',
        `Product already exists.`,
        'resource_already_exists',
        'id',
      );
    return this.put({
      id,
      object: 'product',
      name: str(form.name),
      metadata: obj(form.metadata),
      active: true,
      created: this.now,
    });
  }

  /** A manual tax rate (Stripe's `tax_rates`): a percentage, inclusive or exclusive of the price. */
  private createTaxRate(form: Form): Obj {
    const percentage = Number(str(form.percentage));
    if (!str(form.display_name)) throw invalid('Missing required param: display_name.', 'display_name');
    if (!Number.isFinite(percentage) || percentage < 0 || percentage > 100)
      throw invalid('Invalid percentage.', 'percentage');
    if (form.inclusive === undefined) throw invalid('Missing required param: inclusive.', 'inclusive');
    return this.put({
      id: newId('txr'),
      object: 'tax_rate',
      active: form.active !== 'false',
      country: str(form.country) || null,
      created: this.now,
      description: str(form.description) || null,
      display_name: str(form.display_name),
      inclusive: form.inclusive === 'true',
      jurisdiction: str(form.jurisdiction) || null,
      metadata: obj(form.metadata),
      percentage,
      tax_type: str(form.tax_type) || null,
      livemode: false,
    });
  }

  private createPrice(form: Form): Obj {
    const product = this.get('product', str(form.product));
    const lookupKey = str(form.lookup_key) || null;
    const existing = this.all('price').find((price) => lookupKey && price.lookup_key === lookupKey);
    if (existing && form.transfer_lookup_key !== 'true') {
      throw invalid(`A price (\`${existing.id}\`) already uses that lookup key.`, 'lookup_key');
    }
    if (existing) existing.lookup_key = null;
    const recurring = obj(form.recurring);
    return this.put({
      id: newId('price'),
      object: 'price',
      product: product.id,
      currency: str(form.currency).toLowerCase(),
      unit_amount: Number(str(form.unit_amount)),
      lookup_key: lookupKey,
      nickname: str(form.nickname) || null,
      metadata: obj(form.metadata),
      active: true,
      type: recurring.interval ? 'recurring' : 'one_time',
      recurring: recurring.interval
        ? { interval: str(recurring.interval), interval_count: Number(str(recurring.interval_count) || '1') }
        : null,
      created: this.now,
    });
  }

  private listPrices(form: Form): unknown {
    const keys = asList(form.lookup_keys).map(String);
    return list(
      this.all('price').filter((price) => keys.length === 0 || keys.includes(String(price.lookup_key))),
    );
  }

  // --- cards ------------------------------------------------------------------------------------

  private createSetupIntent(form: Form): Obj {
    if (form.customer) this.get('customer', str(form.customer));
    const id = newId('seti');
    return this.put({
      id,
      object: 'setup_intent',
      customer: str(form.customer) || null,
      usage: str(form.usage) || 'off_session',
      status: 'requires_payment_method',
      payment_method: null,
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      metadata: obj(form.metadata),
      created: this.now,
    });
  }

  /** Server-side confirm with a test card id, as Stripe's test mode allows (`pm_card_visa`). */
  private confirmSetupIntent(id: string, form: Form): Obj {
    const intent = this.get('setup_intent', id);
    const card = TEST_CARDS[str(form.payment_method)];
    if (!card) throw invalid(`No such PaymentMethod: '${str(form.payment_method)}'`, 'payment_method');
    const pm = this.put({
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      customer: null,
      card: {
        brand: card.brand,
        last4: card.last4,
        exp_month: 12,
        exp_year: new Date(this.now * 1000).getUTCFullYear() + 3,
      },
      created: this.now,
    });
    if (card.declines) this.declining.add(pm.id);
    if (intent.customer) this.attachPaymentMethod(pm.id, String(intent.customer));
    intent.payment_method = pm.id;
    intent.status = 'succeeded';
    this.emit('setup_intent.succeeded', intent);
    return intent;
  }

  private attachPaymentMethod(id: string, customer: string): Obj {
    const pm = this.get('payment_method', id);
    this.get('customer', customer);
    pm.customer = customer;
    this.emit('payment_method.attached', pm);
    return pm;
  }

  // --- subscriptions ----------------------------------------------------------------------------

  private createSubscription(form: Form): Obj {
    const customer = this.get('customer', str(form.customer));
    const items = asList(form.items).map((item) => obj(item));
    if (items.length === 0) throw invalid('Missing required param: items.', 'items');
    const trialDays = Number(str(form.trial_period_days) || '0');
    const id = newId('sub');
    const sub: Obj = {
      id,
      object: 'subscription',
      customer: customer.id,
      status: 'incomplete',
      created: this.now,
      start_date: this.now,
      billing_cycle_anchor: this.now,
      trial_start: trialDays ? this.now : null,
      trial_end: trialDays ? this.now + trialDays * DAY : null,
      trial_settings: {
        end_behavior: {
          missing_payment_method:
            str(obj(obj(form.trial_settings).end_behavior).missing_payment_method) || 'create_invoice',
        },
      },
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      pause_collection: null,
      default_payment_method: str(form.default_payment_method) || null,
      default_tax_rates: this.taxRates(form.default_tax_rates),
      currency: '',
      latest_invoice: null,
      schedule: null,
      metadata: obj(form.metadata),
      items: list([]),
      livemode: false,
    };
    this.setItems(sub, items);
    this.put(sub);
    this.setPeriod(sub, this.now, (sub.trial_end as number | null) ?? this.now + this.intervalOf(sub));
    if (trialDays) {
      sub.status = 'trialing';
      // A trial starts with a paid invoice of nothing, as Stripe issues one.
      this.invoice(sub, 0, 'subscription_create', true);
    } else {
      this.invoice(sub, this.total(sub), 'subscription_create', true);
      sub.status = this.latestInvoice(sub).status === 'paid' ? 'active' : 'incomplete';
    }
    this.emit('customer.subscription.created', sub);
    return sub;
  }

  private updateSubscription(id: string, form: Form): Obj {
    const sub = this.get('subscription', id);
    const before = snapshot(sub);
    if (sub.status === 'canceled')
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    if (form.cancel_at_period_end !== undefined) {
      if (sub.schedule) {
        throw invalid(
          `The subscription is managed by the subscription schedule \`${String(sub.schedule)}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
        );
      }
      sub.cancel_at_period_end = form.cancel_at_period_end === 'true';
      sub.canceled_at = sub.cancel_at_period_end ? this.now : null;
    }
    if (form.default_payment_method !== undefined)
      sub.default_payment_method = str(form.default_payment_method) || null;
    if (form.metadata) sub.metadata = { ...obj(sub.metadata), ...obj(form.metadata) };
    // Stripe's form encoding sends an emptied list as the empty string.
    if (form.default_tax_rates !== undefined) sub.default_tax_rates = this.taxRates(form.default_tax_rates);
    if (form.items)
      this.changeItems(
        sub,
        asList(form.items).map((item) => obj(item)),
        str(form.proration_behavior) || 'create_prorations',
        this.prorationDate(sub, form.proration_date),
      );
    this.emit('customer.subscription.updated', sub, changed(before, sub));
    return sub;
  }

  /** Replaces prices and quantities; a change of interval restarts the period now, as Stripe does. */
  private changeItems(sub: Obj, changes: Record<string, FormValue>[], proration: string, at: number): void {
    const before = snapshot(sub);
    this.setItems(sub, this.itemsAfter(sub, changes));
    if (sub.status === 'trialing') return;
    const change = this.proration(before, sub, at);
    if (change.restarts) {
      // The new cycle starts now, whatever moment the amounts were prorated for.
      this.setPeriod(sub, this.now, this.now + this.intervalOf(sub));
      this.invoice(sub, Math.max(0, change.amount), 'subscription_update', true);
      return;
    }
    if (proration === 'none') return;
    if (proration === 'always_invoice' && change.amount > 0)
      this.invoice(sub, change.amount, 'subscription_update', true);
    else if (change.amount !== 0) sub.pending_proration = Number(sub.pending_proration ?? 0) + change.amount;
  }

  /** The subscription's items once `changes` (Stripe's `items[]`: by id, new, or deleted) apply. */
  private itemsAfter(sub: Obj, changes: Record<string, FormValue>[]): Record<string, FormValue>[] {
    const next: Record<string, FormValue>[] = (sub.items as { data: Obj[] }).data.map((item) => ({
      id: item.id,
      price: (item.price as Obj).id,
      quantity: String(item.quantity),
    }));
    for (const change of changes) {
      const at = next.findIndex((item) => item.id === change.id);
      if (change.deleted === 'true') {
        if (at >= 0) next.splice(at, 1);
        continue;
      }
      if (at >= 0) next[at] = { ...next[at], ...change };
      else next.push(change);
    }
    return next;
  }

  /**
   * What a change from `before` to `after` costs at `at`: the difference for the rest of the period
   * (negative: a credit), or, when the interval changes, the new period from `at` less the unused
   * part of the old one, as Stripe prorates.
   */
  private proration(
    before: Obj,
    after: Obj,
    at: number,
  ): { amount: number; restarts: boolean; periodEnd: number } {
    const { start, end } = this.period(before);
    const oldTotal = this.total(before);
    const newTotal = this.total(after);
    const interval = this.intervalOf(after);
    if (interval !== this.intervalOf(before)) {
      const unused = Math.floor((oldTotal * Math.max(0, end - at)) / Math.max(1, end - start));
      return { amount: newTotal - unused, restarts: true, periodEnd: at + interval };
    }
    const remaining = Math.max(0, end - at) / Math.max(1, end - start);
    return { amount: Math.round((newTotal - oldTotal) * remaining), restarts: false, periodEnd: end };
  }

  /** Stripe's `proration_date`: now unless given, and refused outside the current period. */
  private prorationDate(sub: Obj, given: FormValue | undefined): number {
    if (given === undefined || str(given) === '') return this.now;
    const at = Number(str(given));
    const { start, end } = this.period(sub);
    if (!Number.isInteger(at) || at < start || at > end)
      throw invalid('proration_date must be within the current billing period.', 'proration_date');
    return at;
  }

  /**
   * `invoices.createPreview` for a subscription update (`subscription_details.items`): the lines it
   * would invoice, prorations marked as Stripe marks them, nothing changed or recorded.
   */
  private previewInvoice(form: Form): Obj {
    const sub = this.get('subscription', str(form.subscription));
    const details = obj(form.subscription_details);
    const at = this.prorationDate(sub, details.proration_date);
    const after = snapshot(sub);
    this.setItems(
      after,
      this.itemsAfter(
        sub,
        asList(details.items).map((item) => obj(item)),
      ),
    );
    const { end } = this.period(sub);
    const line = (amount: number, start: number, stop: number, proration: boolean) => ({
      object: 'line_item',
      amount,
      currency: after.currency,
      period: { start, end: stop },
      parent: {
        type: 'subscription_item_details',
        subscription_item_details: { proration, subscription: sub.id, invoice_item: null },
        invoice_item_details: null,
      },
    });
    const lines: unknown[] = [];
    if (sub.status !== 'trialing' && str(details.proration_behavior) !== 'none') {
      const change = this.proration(sub, after, at);
      if (change.restarts) {
        lines.push(line(change.amount - this.total(after), at, end, true));
        lines.push(line(this.total(after), at, change.periodEnd, false));
      } else if (change.amount !== 0) {
        lines.push(line(change.amount, at, end, true));
      }
    }
    const amount = lines.reduce<number>((sum, item) => sum + (item as { amount: number }).amount, 0);
    return {
      id: `upcoming_${sub.id}`,
      object: 'invoice',
      customer: sub.customer,
      currency: after.currency,
      subscription_proration_date: at,
      amount_due: Math.max(0, amount),
      total: amount,
      lines: list(lines),
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
    };
  }

  private resumeSubscription(id: string): Obj {
    const sub = this.get('subscription', id);
    if (sub.status !== 'paused') throw invalid('Only a paused subscription can be resumed.');
    const before = snapshot(sub);
    this.setPeriod(sub, this.now, this.now + this.intervalOf(sub));
    const invoice = this.invoice(sub, this.total(sub), 'subscription_cycle', true);
    // A resumption that could not be paid leaves the subscription paused (Stripe voids it after 23 h).
    if (invoice.status === 'paid') {
      sub.status = 'active';
      this.emit('customer.subscription.resumed', sub);
      this.emit('customer.subscription.updated', sub, changed(before, sub));
    }
    return sub;
  }

  private cancelSubscription(sub: Obj): Obj {
    const before = snapshot(sub);
    sub.status = 'canceled';
    sub.ended_at = this.now;
    sub.canceled_at = sub.canceled_at ?? this.now;
    for (const inv of this.all('invoice')) {
      if (subscriptionOf(inv) === sub.id && inv.status === 'open') {
        inv.status = 'void';
        inv.status_transitions = { ...obj(inv.status_transitions), voided_at: this.now };
      }
    }
    this.emit('customer.subscription.deleted', sub, changed(before, sub));
    return sub;
  }

  /** What happens when time passes: trial end, renewals, cancellation at period end, schedule phases. */
  private runSubscription(sub: Obj): void {
    for (let guard = 0; guard < 100; guard++) {
      const { end } = this.period(sub);
      // As Stripe does, three days before the trial ends (at once when less is left), once.
      if (
        sub.status === 'trialing' &&
        !this.trialWillEndSent.has(sub.id) &&
        (sub.trial_end as number) - 3 * DAY <= this.now &&
        (sub.trial_end as number) > this.now
      ) {
        this.trialWillEndSent.add(sub.id);
        this.emit('customer.subscription.trial_will_end', sub);
      }
      if (sub.status === 'trialing' && (sub.trial_end as number) <= this.now) {
        this.endTrial(sub);
        continue;
      }
      if (!['active', 'past_due', 'unpaid'].includes(String(sub.status)) || end > this.now) return;
      const before = snapshot(sub);
      if (sub.cancel_at_period_end) {
        this.cancelSubscription(sub);
        return;
      }
      this.nextPhase(sub, end);
      this.setPeriod(sub, end, end + this.intervalOf(sub));
      const amount = this.total(sub) + Number(sub.pending_proration ?? 0);
      sub.pending_proration = 0;
      const invoice = this.invoice(sub, Math.max(0, amount), 'subscription_cycle', sub.status !== 'unpaid');
      sub.status = invoice.status === 'paid' ? 'active' : sub.status === 'unpaid' ? 'unpaid' : 'past_due';
      this.emit('customer.subscription.updated', sub, changed(before, sub));
    }
  }

  private endTrial(sub: Obj): void {
    const before = snapshot(sub);
    const end = sub.trial_end as number;
    if (
      !this.paymentMethodOf(sub) &&
      obj(obj(sub.trial_settings).end_behavior).missing_payment_method === 'pause'
    ) {
      sub.status = 'paused';
      this.setPeriod(sub, end, end + this.intervalOf(sub));
      this.emit('customer.subscription.paused', sub);
      this.emit('customer.subscription.updated', sub, changed(before, sub));
      return;
    }
    this.setPeriod(sub, end, end + this.intervalOf(sub));
    const invoice = this.invoice(sub, this.total(sub), 'subscription_cycle', true);
    sub.status = invoice.status === 'paid' ? 'active' : 'past_due';
    this.emit('customer.subscription.updated', sub, changed(before, sub));
  }

  // --- schedules --------------------------------------------------------------------------------

  private createSchedule(form: Form): Obj {
    const sub = this.get('subscription', str(form.from_subscription));
    if (sub.schedule)
      throw invalid('The subscription is already attached to a schedule.', 'from_subscription');
    const { start, end } = this.period(sub);
    const schedule = this.put({
      id: newId('sub_sched'),
      object: 'subscription_schedule',
      customer: sub.customer,
      subscription: sub.id,
      status: 'active',
      end_behavior: 'release',
      current_phase: { start_date: start, end_date: end },
      phases: [
        {
          start_date: start,
          end_date: end,
          items: (sub.items as { data: Obj[] }).data.map((item) => ({
            price: (item.price as Obj).id,
            quantity: item.quantity,
          })),
        },
      ],
      released_subscription: null,
      created: this.now,
    });
    sub.schedule = schedule.id;
    this.emit('subscription_schedule.created', schedule);
    return schedule;
  }

  private updateSchedule(id: string, form: Form): Obj {
    const schedule = this.get('subscription_schedule', id);
    if (schedule.status !== 'active')
      throw invalid(`You cannot update a subscription schedule that is ${String(schedule.status)}.`);
    if (form.end_behavior) schedule.end_behavior = str(form.end_behavior);
    if (form.phases) {
      let cursor = Number(obj(asList(form.phases)[0]).start_date ?? this.now);
      schedule.phases = asList(form.phases).map((raw) => {
        const phase = obj(raw);
        const start = Number(str(phase.start_date) || cursor);
        const duration = obj(phase.duration);
        const end = phase.end_date
          ? Number(str(phase.end_date))
          : start +
            unitSeconds(str(duration.interval) || 'month') * Number(str(duration.interval_count) || '1');
        cursor = end;
        return {
          start_date: start,
          end_date: end,
          items: asList(phase.items).map((item) => ({
            price: str(obj(item).price),
            quantity: Number(str(obj(item).quantity) || '1'),
          })),
        };
      });
    }
    this.emit('subscription_schedule.updated', schedule);
    return schedule;
  }

  private releaseSchedule(id: string): Obj {
    const schedule = this.get('subscription_schedule', id);
    schedule.status = 'released';
    schedule.released_subscription = schedule.subscription;
    const sub = this.get('subscription', String(schedule.subscription));
    sub.schedule = null;
    schedule.subscription = null;
    this.emit('subscription_schedule.released', schedule);
    return schedule;
  }

  /** At a period boundary, a schedule's next phase replaces the items; past the last phase it ends. */
  private nextPhase(sub: Obj, boundary: number): void {
    if (!sub.schedule) return;
    const schedule = this.get('subscription_schedule', String(sub.schedule));
    const phases = schedule.phases as {
      start_date: number;
      end_date: number;
      items: { price: string; quantity: number }[];
    }[];
    const phase = phases.find(
      (candidate) => candidate.start_date <= boundary && boundary < candidate.end_date,
    );
    if (phase) {
      const ids = (sub.items as { data: Obj[] }).data.map((item) => item.id);
      this.setItems(sub, [
        ...ids.map((itemId) => ({ id: itemId, deleted: 'true' })),
        ...phase.items.map((item) => ({ price: item.price, quantity: String(item.quantity) })),
      ]);
      schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date };
      if (phase === phases.at(-1) && schedule.end_behavior === 'release') this.releaseSchedule(schedule.id);
      else this.emit('subscription_schedule.updated', schedule);
    }
  }

  // --- invoices ---------------------------------------------------------------------------------

  /**
   * An invoice for `amount` (before any exclusive tax), finalized at once. Its lines are the
   * subscription's items at their prices (a trial's at nothing) plus one line for whatever the
   * amount holds besides them (a proration); a plan change's invoice is that one line alone. The
   * subscription's `default_tax_rates` apply to every line; each rate's total is rounded once per
   * invoice (Stripe's invoice-level tax rounding), and each line's own share separately.
   */
  private invoice(sub: Obj, amount: number, reason: string, attempt: boolean): Obj {
    const items = (sub.items as { data: Obj[] }).data;
    const { start, end } = this.period(sub);
    const trial = sub.status === 'trialing' && amount === 0;
    const line = (item: Obj, lineAmount: number, description: string, proration: boolean) => ({
      id: newId('il'),
      object: 'line_item',
      amount: lineAmount,
      currency: sub.currency,
      description,
      parent: {
        type: 'subscription_item_details',
        subscription_item_details: { proration, subscription: sub.id, subscription_item: item.id },
      },
      period: { start, end },
      pricing: {
        type: 'price_details',
        price_details: { price: (item.price as Obj).id, product: (item.price as Obj).product },
        unit_amount_decimal: String((item.price as Obj).unit_amount),
      },
      quantity: item.quantity,
      taxes: [] as ReturnType<typeof taxShare>[],
    });
    const lines =
      reason === 'subscription_update'
        ? []
        : items.map((item) => {
            const name = this.productName(item);
            const full = Number((item.price as Obj).unit_amount) * Number(item.quantity);
            return trial
              ? line(item, 0, `Trial period for ${name}`, false)
              : line(item, full, `${String(item.quantity)} × ${name}`, false);
          });
    const rest = amount - lines.reduce((sum, each) => sum + each.amount, 0);
    if (rest !== 0 && items[0])
      lines.push(line(items[0], rest, `Prorated change of ${this.productName(items[0])}`, true));
    const rates = ((sub.default_tax_rates as string[] | undefined) ?? []).map((id) =>
      this.get('tax_rate', id),
    );
    const totalTaxes = rates.map((rate) => {
      const taxable = lines.reduce((sum, each) => sum + each.amount, 0);
      for (const each of lines) each.taxes.push(taxShare(rate, each.amount));
      return taxShare(rate, taxable);
    });
    const exclusiveTax = totalTaxes
      .filter((tax) => tax.tax_behavior === 'exclusive')
      .reduce((sum, tax) => sum + Number(tax.amount), 0);
    const inclusiveTax = totalTaxes
      .filter((tax) => tax.tax_behavior === 'inclusive')
      .reduce((sum, tax) => sum + Number(tax.amount), 0);
    const due = amount + exclusiveTax;
    const customer = this.get('customer', String(sub.customer));
    const invoice = this.put({
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      customer_email: customer.email ?? null,
      // Copied when the invoice is finalized, as Stripe does: a later change of name leaves it.
      customer_name: customer.name ?? null,
      number: this.nextInvoiceNumber(customer),
      currency: sub.currency,
      subtotal: amount,
      subtotal_excluding_tax: amount - inclusiveTax,
      total: due,
      total_excluding_tax: due - exclusiveTax - inclusiveTax,
      total_taxes: totalTaxes,
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      attempt_count: 0,
      attempted: false,
      billing_reason: reason,
      status: 'open',
      status_transitions: { finalized_at: this.now, paid_at: null, voided_at: null },
      next_payment_attempt: null,
      hosted_invoice_url: null,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: obj(sub.metadata) },
      },
      lines: list(lines),
      created: this.now,
      effective_at: this.now,
      period_start: start,
      period_end: end,
    });
    sub.latest_invoice = invoice.id;
    this.emit('invoice.created', invoice);
    this.emit('invoice.finalized', invoice);
    if (attempt) this.payInvoice(invoice);
    return invoice;
  }

  private productName(item: Obj): string {
    const product = this.objects.get(String((item.price as Obj).product));
    return product ? String(product.name) : String((item.price as Obj).product);
  }

  /** Stripe's numbering: the customer's prefix and its own sequence, given at finalization. */
  private nextInvoiceNumber(customer: Obj): string {
    const sequence = Number(customer.next_invoice_sequence ?? 1);
    customer.next_invoice_sequence = sequence + 1;
    return `${String(customer.invoice_prefix)}-${String(sequence).padStart(4, '0')}`;
  }

  private taxRates(value: FormValue | undefined): string[] {
    return asList(value)
      .map(str)
      .filter((id) => id !== '')
      .map((id) => this.get('tax_rate', id).id);
  }

  private payInvoiceOrThrow(id: string): Obj {
    const invoice = this.get('invoice', id);
    if (invoice.status === 'paid') throw invalid('Invoice is already paid');
    if (invoice.status !== 'open')
      throw invalid(`You can only pay an open invoice. This invoice is ${String(invoice.status)}.`);
    this.payInvoice(invoice);
    // payInvoice changed the status the check above narrowed.
    if ((invoice.status as string) !== 'paid') {
      throw new StripeError(
        402,
        'card_error',
        'Your card was declined.',
        'card_declined',
        undefined,
        'generic_decline',
      );
    }
    return invoice;
  }

  private payInvoice(invoice: Obj): void {
    const subId = subscriptionOf(invoice);
    const sub = subId ? this.get('subscription', subId) : null;
    const before = sub ? snapshot(sub) : null;
    const pm = sub ? this.paymentMethodOf(sub) : this.defaultPaymentMethod(String(invoice.customer));
    if (invoice.amount_due === 0 || (pm && !this.declining.has(pm))) {
      invoice.status = 'paid';
      invoice.status_transitions = { ...obj(invoice.status_transitions), paid_at: this.now };
      invoice.amount_paid = invoice.amount_due;
      invoice.amount_remaining = 0;
      invoice.next_payment_attempt = null;
      if (invoice.amount_due !== 0) invoice.attempt_count = Number(invoice.attempt_count) + 1;
      this.emit('invoice.paid', invoice);
      this.emit('invoice.payment_succeeded', invoice);
      if (sub && ['past_due', 'unpaid'].includes(String(sub.status)) && !this.hasOpenInvoice(sub)) {
        sub.status = 'active';
        this.emit('customer.subscription.updated', sub, changed(before as Obj, sub));
      }
      return;
    }
    invoice.attempted = true;
    invoice.attempt_count = Number(invoice.attempt_count) + 1;
    invoice.next_payment_attempt = pm ? this.now + 3 * DAY : null;
    this.emit('invoice.payment_failed', invoice);
  }

  private hasOpenInvoice(sub: Obj): boolean {
    return this.all('invoice').some((inv) => subscriptionOf(inv) === sub.id && inv.status === 'open');
  }

  private latestInvoice(sub: Obj): Obj {
    return this.get('invoice', String(sub.latest_invoice));
  }

  // --- test clocks ------------------------------------------------------------------------------

  private testClock(id: string | undefined, action: string | undefined, form: Form, method = 'POST'): Obj {
    if (!id && method === 'POST') {
      return this.put({
        id: newId('clock'),
        object: 'test_helpers.test_clock',
        frozen_time: Number(str(form.frozen_time) || this.now),
        name: str(form.name) || null,
        status: 'ready',
        deletes_after: this.now + 7 * DAY,
        created: this.now,
      });
    }
    const clock = this.get('test_helpers.test_clock', String(id));
    if (action === 'advance' && method === 'POST') {
      this.advanceTo(Number(str(form.frozen_time)));
      this.emit('test_helpers.test_clock.ready', clock);
    }
    return clock;
  }

  // --- helpers ----------------------------------------------------------------------------------

  private setItems(sub: Obj, items: Record<string, FormValue>[]): void {
    const { start, end } = (sub.items as { data: Obj[] }).data.length
      ? this.period(sub)
      : { start: this.now, end: this.now };
    const existing = new Map((sub.items as { data: Obj[] }).data.map((item) => [item.id, item]));
    const data = items
      .filter((item) => item.deleted !== 'true')
      .map((item) => {
        const price = this.get(
          'price',
          str(item.price) || String((existing.get(str(item.id))?.price as Obj | undefined)?.id),
        );
        return {
          id: str(item.id) || newId('si'),
          object: 'subscription_item',
          price,
          quantity: Number(str(item.quantity) || '1'),
          subscription: sub.id,
          current_period_start: start,
          current_period_end: end,
        };
      });
    const prices = new Set<string>();
    for (const item of data) {
      if (prices.has(item.price.id))
        throw invalid(`Cannot add multiple subscription items with the same plan: ${item.price.id}`, 'items');
      prices.add(item.price.id);
    }
    const shapes = new Set(
      data.map((item) => `${String(item.price.currency)} ${JSON.stringify(item.price.recurring)}`),
    );
    if (shapes.size > 1)
      throw invalid(
        'Currency and interval fields must match across all plans on this subscription.',
        'items',
      );
    if (sub.currency && data[0] && sub.currency !== data[0].price.currency) {
      throw invalid('You cannot combine currencies on a single customer.', 'items');
    }
    sub.currency = data[0]?.price.currency ?? sub.currency;
    sub.items = list(data);
  }

  private setPeriod(sub: Obj, start: number, end: number): void {
    for (const item of (sub.items as { data: Obj[] }).data) {
      item.current_period_start = start;
      item.current_period_end = end;
    }
  }

  private period(sub: Obj): { start: number; end: number } {
    const item = (sub.items as { data: Obj[] }).data[0];
    return {
      start: Number(item?.current_period_start ?? this.now),
      end: Number(item?.current_period_end ?? this.now),
    };
  }

  private intervalOf(sub: Obj): number {
    const recurring = ((sub.items as { data: Obj[] }).data[0]?.price as Obj | undefined)?.recurring as
      | { interval: string; interval_count: number }
      | undefined;
    return recurring ? unitSeconds(recurring.interval) * recurring.interval_count : 30 * DAY;
  }

  private total(sub: Obj): number {
    return (sub.items as { data: Obj[] }).data.reduce(
      (sum, item) => sum + Number((item.price as Obj).unit_amount) * Number(item.quantity),
      0,
    );
  }

  private paymentMethodOf(sub: Obj): string | null {
    return (sub.default_payment_method as string | null) ?? this.defaultPaymentMethod(String(sub.customer));
  }

  private defaultPaymentMethod(customer: string): string | null {
    return (
      (obj(this.get('customer', customer).invoice_settings).default_payment_method as string | null) ?? null
    );
  }

  private expand(sub: Obj, expand: string[]): Obj {
    if (!expand.includes('latest_invoice') || !sub.latest_invoice) return sub;
    return { ...sub, latest_invoice: this.get('invoice', String(sub.latest_invoice)) };
  }

  private put(object: Obj): Obj {
    this.objects.set(object.id, object);
    return object;
  }

  private get(kind: string, id: string): Obj {
    const object = this.objects.get(id);
    if (!object || object.object !== kind) throw notFound(kind.replace('test_helpers.', ''), id);
    return object;
  }

  private all(kind: string): Obj[] {
    return [...this.objects.values()].filter((object) => object.object === kind);
  }

  /** Records the event with a copy of the object as it is now, and sends it signed to the endpoint. */
  private emit(type: string, object: Obj, previous?: Record<string, unknown>): void {
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.now,
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: {
        object: snapshot(object),
        ...(previous && Object.keys(previous).length ? { previous_attributes: previous } : {}),
      },
    };
    this.events.push(event);
    const { webhookUrl, webhookSecret } = this.options;
    if (!webhookUrl || !webhookSecret) return;
    const payload = JSON.stringify(event);
    const header = this.signer.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: this.now,
    });
    // One at a time in order of creation, like one Stripe endpoint under light load; the product
    // must not rely on it, so tests replay events out of order on purpose.
    this.delivery = this.delivery.then(async () => {
      try {
        await fetch(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
          body: payload,
        });
      } catch {
        // An endpoint that is down misses the event; Stripe would retry, tests resend from `events`.
      }
    });
  }
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

function unitSeconds(interval: string): number {
  const units: Record<string, number> = { day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY };
  const seconds = units[interval];
  if (!seconds) throw invalid(`Invalid interval: ${interval}`, 'recurring[interval]');
  return seconds;
}

function str(value: FormValue | undefined | unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

function obj(value: unknown): Record<string, FormValue> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, FormValue>)
    : {};
}

function asList(value: FormValue | undefined): FormValue[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object') return Object.values(value);
  return [value];
}

function list(data: unknown[]) {
  return { object: 'list', data, has_more: false, url: '' };
}

/**
 * One tax rate's share of an amount, rounded half up: taken out of it when the rate is inclusive
 * (amount × p / (100 + p)), added to it when exclusive (amount × p / 100). Integer arithmetic, so
 * no float lands a share a yen off.
 */
function taxShare(rate: Obj, amount: number) {
  const inclusive = rate.inclusive === true;
  // Percentages may have decimals (8.875): scaled to thousandths.
  const p = Math.round(Number(rate.percentage) * 1000);
  const base = inclusive ? 100_000 + p : 100_000;
  const sign = amount < 0 ? -1 : 1;
  const share = Math.floor((2 * Math.abs(amount) * p + base) / (2 * base));
  return {
    amount: sign * share,
    tax_behavior: inclusive ? 'inclusive' : 'exclusive',
    tax_rate_details: { tax_rate: rate.id },
    taxability_reason: 'standard_rated',
    taxable_amount: inclusive ? amount - sign * share : amount,
    type: 'tax_rate_details',
  };
}

function subscriptionOf(invoice: Obj): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: string } } | null;
  return parent?.subscription_details?.subscription ?? null;
}

function snapshot(object: Obj): Obj {
  return structuredClone(object);
}

function changed(before: Obj, after: Obj): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify(after[key])) previous[key] = value;
  }
  return previous;
}
