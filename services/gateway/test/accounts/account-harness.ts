import { createAccountService, type XOAuthConfig } from '@mimamori/account';
import type { EventBus } from '@mimamori/bus';
import { accountV1, billingV1, filingsV1, securityV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { createFilingsService, type FilingsService, type FilingsSettings } from '@mimamori/filings';
import { openMailTransport } from '@mimamori/mail';
import { createNotifierService } from '@mimamori/notifier';
import { createGrpcClient } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import {
  type SmtpServerFixture,
  startSmtpServer,
  startTestServiceHost,
  TestClock,
} from '@mimamori/test-fixtures';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import { TestBrowser } from './test-browser.ts';

export const PUBLIC_URL = 'http://localhost';

type ParsedMail = SmtpServerFixture['messages'][number];

export interface AccountHarness {
  db: Db;
  bus: EventBus;
  gateway: Gateway;
  smtp: SmtpServerFixture;
  clock: TestClock;
  account: accountV1.AccountServiceClient;
  /** The filings service, when the options asked for it (its directory loaded, no timers). */
  filings?: FilingsService;
  /** A new browser with its own cookie jar, CSRF cookie already fetched. */
  browser(): Promise<TestBrowser>;
  /** Waits for a mail to `to` whose subject matches, returns the newest. */
  mailTo(to: string, subject: RegExp): Promise<ParsedMail>;
  mailsTo(to: string): ParsedMail[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  discordApiBase?: string;
  xOAuth?: XOAuthConfig;
  /** Trial sweeps this often; long by default so only trial tests see it act. */
  sweepIntervalMs?: number;
  trialGraceMs?: number;
  /** Runs the filings service with these sources (a stand-in's) and gives the gateway its client. */
  filings?: FilingsSettings;
}

/**
 * The account path as it runs in the cluster, in this process: real PostgreSQL (fresh
 * database), JetStream (a namespace of its own), the real SMTP server fixture, account and
 * notifier modules on the service host, and the gateway answering fastify inject requests.
 */
export async function startAccountHarness(options: HarnessOptions = {}): Promise<AccountHarness> {
  const testHost = await startTestServiceHost('accounts-test');
  const { db, bus, logger, shutdown, host } = testHost;
  const smtp = await startSmtpServer();
  const secretBox = createSecretBox(generateSecretKey('test'));
  const clock = new TestClock();
  const running = await runService(
    createAccountService({
      db,
      logger,
      secretBox,
      clock,
      prices: { 3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } } },
      sweepIntervalMs: options.sweepIntervalMs ?? 3_600_000,
      ...(options.trialGraceMs !== undefined ? { trialGraceMs: options.trialGraceMs } : {}),
      ...(options.discordApiBase ? { discordApiBase: options.discordApiBase } : {}),
      ...(options.xOAuth ? { xOAuth: options.xOAuth } : {}),
    }),
    host,
  );
  await runService(
    createNotifierService({
      db,
      logger,
      mail: openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>'),
      secretBox,
      publicUrl: () => PUBLIC_URL,
    }),
    host,
  );
  const account = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  const filingsModule = options.filings
    ? createFilingsService({ db, logger, settings: options.filings, timers: false })
    : undefined;
  const filingsAddress = filingsModule ? (await runService(filingsModule, host)).grpcAddress : undefined;
  await filingsModule?.directory.refresh();
  const filings = filingsAddress
    ? createGrpcClient(filingsV1.FilingsServiceClient, filingsAddress)
    : undefined;
  // Billing is off here (no Stripe keys): its routes answer billing_off.
  const billing = createGrpcClient(billingV1.BillingServiceClient, running.grpcAddress);
  const security = createGrpcClient(securityV1.SecurityServiceClient, running.grpcAddress);
  const gateway = await createGateway({
    logger,
    account,
    filings,
    billing,
    security,
    publicUrl: PUBLIC_URL,
    isShuttingDown: shutdown.isShuttingDown,
  });

  const mailsTo = (to: string) =>
    smtp.messages.filter((mail) => JSON.stringify(mail.to).toLowerCase().includes(to.toLowerCase()));

  return {
    db,
    bus,
    gateway,
    smtp,
    clock,
    account,
    ...(filingsModule ? { filings: filingsModule } : {}),
    async browser() {
      const browser = new TestBrowser(gateway.app);
      await browser.get('/healthz');
      return browser;
    },
    mailsTo,
    async mailTo(to, subject) {
      for (let i = 0; i < 150; i++) {
        const found = mailsTo(to).filter((mail) => subject.test(mail.subject ?? ''));
        const newest = found.at(-1);
        if (newest) return newest;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(
        `no mail to ${to} matching ${subject}: ${JSON.stringify(mailsTo(to).map((m) => m.subject))}`,
      );
    },
    async close() {
      await gateway.close();
      account.close();
      filings?.close();
      billing.close();
      security.close();
      await testHost.close();
      await smtp.close();
    },
  };
}

/** The link a mail carries (text part), e.g. http://localhost/verify?token=… */
export function linkIn(mail: ParsedMail): URL {
  const match = /https?:\/\/\S+\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '');
  if (!match) throw new Error(`no link in mail: ${mail.text}`);
  return new URL(match[0]);
}

export function tokenIn(mail: ParsedMail): string {
  return linkIn(mail).searchParams.get('token') ?? '';
}
