import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAccountService,
  createStripe,
  stripeBilling,
  stripeInvoices,
  syncStripePrices,
} from '@mimamori/account';
import { type BlobStore, createFileBlobStore } from '@mimamori/blob-store';
import { chatworkStandIn, memoryStandInStore } from '@mimamori/chat-stand-ins';
import {
  accountV1,
  auditV1,
  billingV1,
  chatLinkV1,
  closureV1,
  diffV1,
  filingsV1,
  invoiceV1,
  securityV1,
  targetV1,
  webhookV1,
  workspaceV1,
} from '@mimamori/contracts';
import { createCrawlerService } from '@mimamori/crawler';
import { createDiffService } from '@mimamori/diff';
import { createFilingsService } from '@mimamori/filings';
import { openMailTransport } from '@mimamori/mail';
import { createNotifierService } from '@mimamori/notifier';
import { billingCatalogue } from '@mimamori/plans';
import { createGrpcClient, createLogger } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { StripeStandIn } from '@mimamori/stripe-stand-in';
import { createTargetService } from '@mimamori/target';
import {
  type SmtpServerFixture,
  startSmtpServer,
  startTestServiceHost,
  type TestServiceHost,
} from '@mimamori/test-fixtures';
import Fastify from 'fastify';
import { startFilingsStandIn } from '../../../filings/test/filings-stand-in.ts';
import { previewCrawlers } from '../../src/clients/preview-crawlers.ts';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import { TestBrowser } from '../accounts/test-browser.ts';

export const PASSWORD = 'abcd1234';
/** Billing's Stripe secret key and webhook secret here (the stand-in's). */
export const STRIPE_KEYS = { secretKey: 'sk_test_security', webhookSecret: 'whsec_security_test' };

export interface Member {
  browser: TestBrowser;
  userId: string;
  email: string;
}

export interface SecurityHarnessOptions {
  /** Every log line of every service goes here (debug level and up) instead of nowhere. */
  logLines?: string[];
  discordApiBase?: string;
}

export interface SecurityHarness {
  testHost: TestServiceHost;
  /** The mail the notifier sent (verification and reset links). */
  smtp: SmtpServerFixture;
  /** SECRET_KEYS as the services were given them. */
  secretKeys: string;
  /** The target service, for the check templates the scheduler would send. */
  target: targetV1.TargetServiceClient;
  gateway: Gateway;
  /** Where the pictures are kept, and the key the public picture links (/i/…) are signed with. */
  blobs: BlobStore;
  imageLinkKey: Buffer;
  /** The gateway listening on loopback, for requests whose raw path must reach the router as sent. */
  url: string;
  /** A page the crawler may open (the only address its egress guard lets through). */
  siteUrl: string;
  /** A browser with its CSRF cookie and no session. */
  memberBrowser(): Promise<TestBrowser>;
  /** A signed-in user on a fresh Basic 5 trial (plan 3), address verified. */
  member(email: string): Promise<Member>;
  /** The token of the last workspace invitation mailed to the address, once the mail arrived. */
  invitationToken(email: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Every route the gateway has: real PostgreSQL and JetStream (a namespace of their own), the
 * account, target, diff and crawler modules on the service host over gRPC, and the gateway both
 * answering fastify inject requests and listening on loopback.
 */
export async function startSecurityHarness(options: SecurityHarnessOptions = {}): Promise<SecurityHarness> {
  const site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html><body><h1>Shop</h1><div id="price">¥1,200</div></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const { port: sitePort } = site.address() as { port: number };

  const testHost = await startTestServiceHost('security-test');
  const { logLines } = options;
  const logger = logLines
    ? createLogger({
        service: 'security-test',
        level: 'debug',
        destination: { write: (line: string) => void logLines.push(line) },
      })
    : testHost.logger;
  const { db } = testHost;
  const host = { ...testHost.host, logger };
  const secretKeys = generateSecretKey('test');
  const secretBox = createSecretBox(secretKeys);
  const smtp = await startSmtpServer();
  const blobDir = await mkdtemp(join(tmpdir(), 'security-blobs-'));
  const blobs = await createFileBlobStore(blobDir);
  const imageLinkKey = randomBytes(32);
  // Billing on the Stripe stand-in, so the billing routes are walked with billing on.
  const standIn = new StripeStandIn({ webhookSecret: STRIPE_KEYS.webhookSecret });
  const stripeApi = `http://127.0.0.1:${(await standIn.listen()).port}`;
  const prices = { 3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } } };
  await syncStripePrices(createStripe(STRIPE_KEYS.secretKey, stripeApi), billingCatalogue(prices, {}));
  // Chatwork on its stand-in, so the chat link routes are walked with a link of Alice's.
  const chatStandIn = Fastify();
  chatworkStandIn()(chatStandIn, '/dev/chatwork', {
    store: memoryStandInStore(),
    productUrl: () => '',
    settings: {},
  });
  const chatSettings = {
    chatwork: { apiBase: `${await chatStandIn.listen({ host: '127.0.0.1', port: 0 })}/dev/chatwork` },
  };
  const accountService = await runService(
    createAccountService({
      chatSettings,
      db,
      logger,
      secretBox,
      // Alice's webhook points at the local shop page, which answers any POST.
      webhookEgressAllow: [`127.0.0.1:${sitePort}`],
      prices,
      billing: {
        provider: stripeBilling({
          ...STRIPE_KEYS,
          apiBase: stripeApi,
          clock: { now: () => new Date() },
        }),
        renewalGraceMs: 7 * 86_400_000,
        invoices: stripeInvoices(createStripe(STRIPE_KEYS.secretKey, stripeApi)),
      },
      ...(options.discordApiBase ? { discordApiBase: options.discordApiBase } : {}),
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
  const targetService = await runService(createTargetService({ db, logger, secretBox }), host);
  const diffService = await runService(createDiffService({ db, bus: host.bus, logger, blobs }), host);
  const crawlerService = await runService(
    createCrawlerService({
      bus: testHost.bus,
      logger,
      blobs,
      allow: [`127.0.0.1:${sitePort}`],
      secrets: secretBox,
    }),
    host,
  );
  // The filings sources are a local stand-in; its directory is loaded before any route is asked.
  const filingsSources = await startFilingsStandIn();
  const filingsModule = createFilingsService({
    db,
    logger,
    settings: filingsSources.settings(),
    timers: false,
  });
  const filingsService = await runService(filingsModule, host);
  await filingsModule.directory.refresh();
  const account = createGrpcClient(accountV1.AccountServiceClient, accountService.grpcAddress);
  const filings = createGrpcClient(filingsV1.FilingsServiceClient, filingsService.grpcAddress);
  const webhooks = createGrpcClient(webhookV1.WebhookServiceClient, accountService.grpcAddress);
  const chatLinks = createGrpcClient(chatLinkV1.ChatLinkServiceClient, accountService.grpcAddress);
  const workspaces = createGrpcClient(workspaceV1.WorkspaceServiceClient, accountService.grpcAddress);
  const billing = createGrpcClient(billingV1.BillingServiceClient, accountService.grpcAddress);
  const invoices = createGrpcClient(invoiceV1.InvoiceServiceClient, accountService.grpcAddress);
  const closure = createGrpcClient(closureV1.AccountClosureServiceClient, accountService.grpcAddress);
  const audit = createGrpcClient(auditV1.AuditServiceClient, accountService.grpcAddress);
  const security = createGrpcClient(securityV1.SecurityServiceClient, accountService.grpcAddress);
  const target = createGrpcClient(targetV1.TargetServiceClient, targetService.grpcAddress);
  const history = createGrpcClient(diffV1.HistoryServiceClient, diffService.grpcAddress);
  const preview = previewCrawlers(crawlerService.grpcAddress, { deadlineMs: 60_000 });
  const gateway = await createGateway({
    logger,
    account,
    webhooks,
    chatLinks,
    workspaces,
    chat: { settings: chatSettings },
    billing,
    invoices,
    closure,
    audit,
    security,
    target,
    preview,
    secretBox,
    history: { client: history, blobs },
    imageLinkKey,
    filings,
    isShuttingDown: testHost.shutdown.isShuttingDown,
  });
  const url = await gateway.listen({ host: '127.0.0.1', port: 0 });

  return {
    testHost,
    smtp,
    secretKeys,
    target,
    gateway,
    blobs,
    imageLinkKey,
    url,
    siteUrl: `http://127.0.0.1:${sitePort}/`,
    async memberBrowser() {
      const browser = new TestBrowser(gateway.app);
      await browser.get('/healthz');
      return browser;
    },
    async member(email) {
      const browser = new TestBrowser(gateway.app);
      await browser.get('/healthz');
      const signUp = await browser.post('/api/signup', {
        email,
        password: PASSWORD,
        agree: true,
        lang: 'en',
        plan: 3,
      });
      if (signUp.status !== 202) throw new Error(`sign-up failed: ${signUp.text}`);
      // The verification link is the account tests' business; here the address is just verified.
      await db.query('UPDATE account.users SET email_verified_at = now() WHERE lower(email) = lower($1)', [
        email,
      ]);
      const signIn = await browser.post('/api/signin', { email, password: PASSWORD });
      if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.text}`);
      const userId = String((await browser.get('/api/user_info')).body.user_id);
      return { browser, userId, email };
    },
    async invitationToken(email) {
      for (let i = 0; i < 300; i++) {
        const links = smtp.messages
          .filter((mail) => JSON.stringify(mail.to).toLowerCase().includes(email.toLowerCase()))
          .map((mail) => /\/invitation\?token=([\w-]+)/.exec(mail.text ?? '')?.[1])
          .filter((token): token is string => Boolean(token));
        const last = links.at(-1);
        if (last) return last;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no invitation mailed to ${email}`);
    },
    async close() {
      await gateway.close();
      for (const client of [
        account,
        webhooks,
        chatLinks,
        workspaces,
        billing,
        invoices,
        closure,
        audit,
        security,
        target,
        history,
        preview,
        filings,
      ])
        client.close();
      await chatStandIn.close();
      await standIn.close();
      await testHost.close();
      await smtp.close();
      await filingsSources.close();
      await rm(blobDir, { recursive: true, force: true });
      await new Promise((resolve) => site.close(resolve));
    },
  };
}

export interface RawResponse {
  status: number;
  body: string;
}

/**
 * A request whose path goes on the wire exactly as written (`/%61pi/…`, `//api/…`), which
 * fastify's inject and WHATWG URL parsing would normalise first.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  cookies: Record<string, string>,
  headers: Record<string, string> = {},
  body = '{}',
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: hostname,
        port,
        method,
        path,
        headers: {
          'content-type': 'application/json',
          cookie: Object.entries(cookies)
            .map(([name, value]) => `${name}=${value}`)
            .join('; '),
          ...headers,
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(method === 'GET' || method === 'HEAD' ? undefined : body);
  });
}
