import {
  createAccountService,
  createStripe,
  stripeBilling,
  stripeInvoices,
  syncStripePrices,
} from '@mimamori/account';
import { accountV1, billingV1, invoiceV1 } from '@mimamori/contracts';
import { openMailTransport } from '@mimamori/mail';
import { createNotifierService } from '@mimamori/notifier';
import { billingCatalogue, type PlanPrices } from '@mimamori/plans';
import { createGrpcClient } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { StripeStandIn } from '@mimamori/stripe-stand-in';
import {
  type SmtpServerFixture,
  startSmtpServer,
  startTestServiceHost,
  type TestServiceHost,
} from '@mimamori/test-fixtures';
import type Stripe from 'stripe';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import { TestBrowser } from '../accounts/test-browser.ts';

export const WEBHOOK_SECRET = 'whsec_gateway_billing_test';
const KEY = 'sk_test_gateway_billing';
export const DAY = 86_400;
export const PRICES: PlanPrices = {
  2: { month: { JPY: 500, USD: 400 }, year: { JPY: 5000, USD: 4000 } },
  3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } },
  5: { month: { JPY: 2980, USD: 2000 }, year: { JPY: 29800, USD: 20000 } },
};
/** The seller the receipts name (a registration number whose check digit holds). */
export const ISSUER = {
  legalName: { ja: '株式会社見守りテスト', en: 'Mimamori Test K.K.' },
  registrationNumber: 'T7123456789012',
};
const ADDON_PRICES = { ss: { month: { JPY: 300, USD: 200 }, year: { JPY: 3000, USD: 2000 } } };

export interface BillingHarness {
  testHost: TestServiceHost;
  standIn: StripeStandIn;
  /** The SDK on the stand-in, as the product's own client is. */
  stripe: Stripe;
  gateway: Gateway;
  /** Where the gateway listens; the stand-in posts its webhooks to /api/stripe/webhook there. */
  url: string;
  smtp: SmtpServerFixture;
  /** A browser signed in as a new account (signed up in `lang`), its billing started. */
  member(email: string, lang?: 'ja' | 'en'): Promise<{ browser: TestBrowser; userId: string }>;
  /** The subjects of the mail sent to `to` so far, once one matching `subject` has arrived. */
  mailSubjects(to: string, subject: RegExp): Promise<string[]>;
  /** Moves Stripe's (and billing's) clock and waits until the webhooks it caused were answered. */
  advanceDays(days: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Billing as the cluster runs it, in this process: real PostgreSQL and JetStream, the account and
 * notifier modules on the service host, the real `stripe` SDK talking to the local stand-in, and
 * the gateway listening on loopback so the stand-in's signed webhooks arrive through its route.
 * Billing's clock is the stand-in's, so a trial ends for both at once.
 */
export async function startBillingHarness(): Promise<BillingHarness> {
  const testHost = await startTestServiceHost('gateway-billing-test');
  const { db, logger, shutdown, host } = testHost;
  const smtp = await startSmtpServer();
  const standIn = new StripeStandIn({ webhookSecret: WEBHOOK_SECRET });
  const { port } = await standIn.listen();
  const apiBase = `http://127.0.0.1:${port}`;
  const stripe = createStripe(KEY, apiBase);
  await syncStripePrices(stripe, billingCatalogue(PRICES, ADDON_PRICES));
  const clock = { now: () => new Date(standIn.now * 1000) };
  const secretBox = createSecretBox(generateSecretKey('test'));
  const running = await runService(
    createAccountService({
      db,
      logger,
      secretBox,
      clock,
      prices: PRICES,
      addonPrices: ADDON_PRICES,
      // Often, so a passed suspend_at is acted on soon after the test moves the clock.
      sweepIntervalMs: 200,
      billing: {
        provider: stripeBilling({ secretKey: KEY, webhookSecret: WEBHOOK_SECRET, apiBase, clock }),
        renewalGraceMs: 7 * DAY * 1000,
        invoices: stripeInvoices(stripe),
      },
      issuer: ISSUER,
    }),
    host,
  );
  await runService(
    createNotifierService({
      db,
      logger,
      mail: openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>'),
      secretBox,
      publicUrl: () => 'http://localhost',
    }),
    host,
  );
  const account = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  const billing = createGrpcClient(billingV1.BillingServiceClient, running.grpcAddress);
  const invoices = createGrpcClient(invoiceV1.InvoiceServiceClient, running.grpcAddress);
  const gateway = await createGateway({
    logger,
    account,
    billing,
    invoices,
    isShuttingDown: shutdown.isShuttingDown,
  });
  const url = await gateway.listen({ host: '127.0.0.1', port: 0 });
  standIn.setWebhookUrl(new URL('/api/stripe/webhook', url).toString());

  return {
    testHost,
    standIn,
    stripe,
    gateway,
    url,
    smtp,
    async member(email, lang = 'ja') {
      const { userId } = await new Promise<accountV1.CreateAccountResponse>((resolve, reject) =>
        account.createAccount({ email, password: 'abcd1234', lang }, (error, response) =>
          error ? reject(error) : resolve(response),
        ),
      );
      await db.query('UPDATE account.users SET email_verified_at = now() WHERE id = $1', [userId]);
      const browser = new TestBrowser(gateway.app);
      await browser.get('/healthz');
      const signIn = await browser.post('/api/signin', { email, password: 'abcd1234' });
      if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.text}`);
      // Live by billing's clock, which the tests move ahead by months.
      await db.query('UPDATE account.sessions SET expires_at = $2 WHERE user_id = $1', [
        userId,
        new Date((standIn.now + 3650 * DAY) * 1000),
      ]);
      // Signup's billing side runs off accounts.created.
      for (let attempt = 0; attempt < 150; attempt++) {
        if ((await browser.get('/api/billing')).status === 200) return { browser, userId };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`billing never started for ${email}`);
    },
    async mailSubjects(to, subject) {
      const subjects = () =>
        smtp.messages
          .filter((mail) => JSON.stringify(mail.to).includes(to))
          .map((mail) => mail.subject ?? '');
      for (let attempt = 0; attempt < 150; attempt++) {
        if (subjects().some((line) => subject.test(line))) return subjects();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no mail to ${to} matching ${subject}: ${JSON.stringify(subjects())}`);
    },
    async advanceDays(days) {
      standIn.advanceTo(standIn.now + days * DAY);
      await standIn.delivered();
    },
    async close() {
      await gateway.close();
      account.close();
      billing.close();
      invoices.close();
      await standIn.close();
      await testHost.close();
      await smtp.close();
    },
  };
}
