import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type Clock,
  createAccountService,
  createStripe,
  stripeBilling,
  stripeInvoices,
  syncStripePrices,
  systemClock,
} from '@mimamori/account';
import { createFileBlobStore } from '@mimamori/blob-store';
import { createInProcessBus } from '@mimamori/bus';
import type { ChatPlatformSettings } from '@mimamori/chat';
import { chatStandIns, fileStandInStore } from '@mimamori/chat-stand-ins';
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
import { type CrawlerDeps, createCrawlerService } from '@mimamori/crawler';
import { type Db, openPglite } from '@mimamori/db';
import { createDiffService } from '@mimamori/diff';
import { createFilingsService, type FilingsSettings } from '@mimamori/filings';
import {
  createGatewayService,
  DISCORD_STAND_IN_PATH,
  listensOnLoopbackOnly,
  previewCrawlers,
  WEBHOOK_RECEIVER_PREFIX,
} from '@mimamori/gateway';
import { keptImageLinkKey } from '@mimamori/image-links';
import { createMailbox, type Mailbox } from '@mimamori/mail';
import {
  accountProfileClient,
  chatLinkBreaker,
  createNotifierService,
  notifierClock,
} from '@mimamori/notifier';
import { type OperatorDetails, operatorFromEnv } from '@mimamori/operator';
import { type AddonPrices, billingCatalogue, type PlanPrices } from '@mimamori/plans';
import { createGrpcClient, type Logger, type Shutdown } from '@mimamori/runtime';
import { createSchedulerService } from '@mimamori/scheduler';
import { createSecretBox, keptSecretKeys } from '@mimamori/secret-box';
import { type RunningService, runService } from '@mimamori/service-host';
import { StripeStandIn } from '@mimamori/stripe-stand-in';
import { createTargetService } from '@mimamori/target';

export interface StandaloneOptions {
  host: string;
  port: number;
  dataDir: string;
  webDistDir?: string;
  /** Tests only: loopback fixture servers (host:port) the crawler may fetch. */
  crawlerAllow?: readonly string[];
  /** Tests only: loopback webhook receivers (host:port) the SSRF guard lets through. */
  webhookEgressAllow?: readonly string[];
  /** The crawler's proxy pool; without one the target service refuses a site's proxy option. */
  proxies?: readonly string[];
  /** The filings sources and their addresses; none is asked unless given (MIMAMORI_FILINGS_SOURCES). */
  filings?: FilingsSettings;
  /** Prices (configuration): the signup plan table, user_info and, on the stand-in, what it sells. */
  prices?: { plans: PlanPrices; addons: AddonPrices };
  /** A real Stripe account; without one the local stand-in plays Stripe's API on loopback. */
  stripe?: { secretKey: string; webhookSecret: string; publishableKey?: string | undefined };
  /** The seller's legal details (OPERATOR_*); the legal pages show marked samples without them. */
  operator?: OperatorDetails;
  /** How often ended trials and passed hold deadlines are looked for (the account service's sweep). */
  sweepIntervalMs?: number;
  /** Tests only: how many times faster the product's minutes pass (MIMAMORI_TIME_SCALE). */
  timeScale?: number;
  logger: Logger;
  shutdown: Shutdown;
}

export interface Standalone {
  url: string;
  /** The Stripe stand-in's address when it runs (no Stripe key given). */
  stripeStandInUrl: string | null;
  mailbox: Mailbox;
  services: Record<string, RunningService>;
  /** The product's database (PGlite), for tests that read what the services store. */
  db: Db;
  /** Where the file-system blob store keeps screenshots and snapshots. */
  blobDir: string;
}

const MAIL_FROM = 'Mimamori <no-reply@mimamori.local>';
/** The SPA's demo shop (web/src/route-paths.ts `mockShop`), which a new user registers first. */
export const DEMO_SHOP_PATH = '/mock/ec';

/**
 * All seven services in this process on embedded defaults: PGlite in the data folder, the
 * in-process bus and a local mailbox. The services are the same modules
 * the cluster runs; they still talk over gRPC (on loopback) and the bus.
 */
export async function startStandalone(options: StandaloneOptions): Promise<Standalone> {
  const { logger, shutdown } = options;
  const dataDir = resolve(options.dataDir);
  await mkdir(join(dataDir, 'pg'), { recursive: true });

  const db = await openPglite(join(dataDir, 'pg'));
  shutdown.register('database', () => db.close());
  const bus = createInProcessBus({
    // A failing handler is redelivered; without a line here the failure would go unseen.
    onHandlerError: (error, message) =>
      logger.warn(
        { err: error, subject: message.subject, deliveryCount: message.deliveryCount },
        'event handler failed',
      ),
  });
  shutdown.register('bus', () => bus.close());
  const mailbox = await createMailbox(join(dataDir, 'mailbox'), { from: MAIL_FROM });

  const secretBox = createSecretBox(await keptSecretKeys(join(dataDir, 'secret-keys')));
  // Signs the public picture links (/i/<token>) chat platforms fetch; kept so links sent before a
  // restart still serve their pictures after it (docs/channels.md#images).
  const imageLinkKey = await keptImageLinkKey(join(dataDir, 'image-link-key'));
  let url = '';
  // The crawler's browser may open this product's own demo shop and the script files it runs,
  // nothing else of its origin (ADR 0006). Empty until the gateway listens and the port is known.
  const ownDemoShop: CrawlerDeps['allowPages'] = () =>
    url ? [{ origin: new URL(url).origin, paths: [DEMO_SHOP_PATH, '/assets/'] }] : [];

  // Listening on loopback only, Discord messages go to the product's own /dev/discord page, so
  // they can be seen without a Discord webhook; reachable from elsewhere, they go to Discord.
  const discordStandIn = listensOnLoopbackOnly(options.host);
  const discordApiBase = discordStandIn ? () => new URL(DISCORD_STAND_IN_PATH, url).toString() : undefined;
  // What the stand-ins received stays in the data folder, so their pages survive a restart.
  const standInStore = fileStandInStore(join(dataDir, 'stand-ins'));
  // On loopback only, the product's own /dev/webhooks receivers are the one loopback address the
  // SSRF guard lets webhooks reach, so a new user can try webhooks without a server of their own.
  const webhookOwnReceiver = discordStandIn
    ? () => (url ? new URL(WEBHOOK_RECEIVER_PREFIX, url).toString() : null)
    : undefined;
  // So do the chat platforms' messages, to /dev/<platform>; from elsewhere only Chatwork and Teams,
  // which need no product-wide secret, are on (the others need their apps' secrets in the cluster).
  const chatSettings = discordStandIn
    ? standInChatSettings(() => url, await keptStandInSecrets(dataDir))
    : () => ({ chatwork: { apiBase: 'https://api.chatwork.com' }, teams: { apiBase: '' } });

  const timeScale = options.timeScale ?? 1;
  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 }, timeScale };
  const prices = options.prices ?? { plans: {}, addons: {} };
  const billing = await startBilling(options, prices);
  const blobDir = join(dataDir, 'blobs');
  const blobs = await createFileBlobStore(blobDir);
  const services: Record<string, RunningService> = {};
  const modules = [
    createAccountService({
      db,
      logger,
      secretBox,
      webhookEgressAllow: options.webhookEgressAllow ?? [],
      ...(webhookOwnReceiver ? { webhookOwnReceiver } : {}),
      prices: prices.plans,
      addonPrices: prices.addons,
      billing: { provider: billing.provider, renewalGraceMs: 7 * 86_400_000, invoices: billing.invoices },
      // The seller on every receipt, as the legal pages show it: the marked samples without details.
      issuer: options.operator ?? operatorFromEnv({}, { required: false }),
      // The stand-in's time, so a hold deadline its test clock moved past is acted on.
      clock: billing.clock,
      ...(options.sweepIntervalMs ? { sweepIntervalMs: options.sweepIntervalMs } : {}),
      ...(discordApiBase ? { discordApiBase } : {}),
      chatSettings,
    }),
    createTargetService({ db, logger, secretBox, proxyPool: (options.proxies ?? []).length > 0 }),
    createSchedulerService({ db, bus, logger, timeScale }),
    // Screenshots and large area content stay in the data folder.
    createCrawlerService({
      bus,
      logger,
      blobs,
      allow: options.crawlerAllow ?? [],
      allowPages: ownDemoShop,
      timeScale,
      secrets: secretBox,
      proxies: options.proxies ?? [],
    }),
    createDiffService({ db, bus, logger, blobs }),
    createNotifierService({
      db,
      logger,
      mail: mailbox,
      secretBox,
      publicUrl: () => url,
      updates: {
        profiles: accountProfileClient(() =>
          createGrpcClient(accountV1.AccountServiceClient, services.account?.grpcAddress ?? ''),
        ),
        blobs,
        webhookEgressAllow: options.webhookEgressAllow ?? [],
        ...(webhookOwnReceiver ? { webhookOwnReceiver } : {}),
        ...(discordApiBase ? { discordApiBase } : {}),
        chat: {
          settings: chatSettings,
          imageLinkKey,
          links: chatLinkBreaker(() =>
            createGrpcClient(chatLinkV1.ChatLinkServiceClient, services.account?.grpcAddress ?? ''),
          ),
        },
      },
      clock: notifierClock(timeScale),
    }),
    createFilingsService({ db, logger, ...(options.filings ? { settings: options.filings } : {}) }),
  ];
  for (const module of modules) services[module.name] = await runService(module, host);

  const account = createGrpcClient(accountV1.AccountServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('account client', async () => account.close());
  // One crawler here: its session ids carry no address and all go to it (ADR 0011).
  const preview = previewCrawlers(services.crawler?.grpcAddress ?? '');
  shutdown.register('crawler client', async () => preview.close());
  const billingClient = createGrpcClient(billingV1.BillingServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('billing client', async () => billingClient.close());
  const invoices = createGrpcClient(invoiceV1.InvoiceServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('invoice client', async () => invoices.close());
  const closure = createGrpcClient(
    closureV1.AccountClosureServiceClient,
    services.account?.grpcAddress ?? '',
  );
  shutdown.register('closure client', async () => closure.close());
  const audit = createGrpcClient(auditV1.AuditServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('audit client', async () => audit.close());
  const security = createGrpcClient(securityV1.SecurityServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('security client', async () => security.close());
  const target = createGrpcClient(targetV1.TargetServiceClient, services.target?.grpcAddress ?? '');
  shutdown.register('target client', async () => target.close());
  const history = createGrpcClient(diffV1.HistoryServiceClient, services.diff?.grpcAddress ?? '');
  shutdown.register('diff client', async () => history.close());
  const filings = createGrpcClient(filingsV1.FilingsServiceClient, services.filings?.grpcAddress ?? '');
  shutdown.register('filings client', async () => filings.close());
  const webhooks = createGrpcClient(webhookV1.WebhookServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('webhook client', async () => webhooks.close());
  const chatLinks = createGrpcClient(chatLinkV1.ChatLinkServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('chat link client', async () => chatLinks.close());
  const workspaces = createGrpcClient(
    workspaceV1.WorkspaceServiceClient,
    services.account?.grpcAddress ?? '',
  );
  shutdown.register('workspace client', async () => workspaces.close());
  const gateway = await createGatewayService({
    logger: logger.child({ service: 'gateway' }),
    account,
    webhooks,
    chatLinks,
    workspaces,
    chat: { settings: chatSettings },
    chatStandIns: discordStandIn
      ? {
          standIns: chatStandIns(),
          settings: chatSettings,
          productUrl: () => url,
        }
      : undefined,
    billing: billingClient,
    invoices,
    closure,
    audit,
    security,
    stripePublishableKey: options.stripe?.publishableKey,
    preview,
    secretBox,
    target,
    history: { client: history, blobs },
    imageLinkKey,
    filings,
    webDistDir: options.webDistDir,
    timeScale,
    mailbox,
    discordStandIn,
    standInStore,
    webhookReceiver: discordStandIn ? { productUrl: () => url } : undefined,
    operator: options.operator,
    isShuttingDown: shutdown.isShuttingDown,
    listen: { host: options.host, port: options.port },
  });
  services.gateway = await runService(gateway, host);
  url = services.gateway.url ?? '';
  billing.standIn?.setWebhookUrl(new URL('/api/stripe/webhook', url).toString());
  return { url, mailbox, services, stripeStandInUrl: billing.standInUrl, db, blobDir };
}

/**
 * Billing on Stripe when a key is given; else on the local stand-in, which listens on loopback,
 * sells the configured prices and posts its signed webhooks to this product's webhook route once
 * the gateway listens (the product re-reads Stripe on every call, so none is needed before).
 */
async function startBilling(options: StandaloneOptions, prices: { plans: PlanPrices; addons: AddonPrices }) {
  if (options.stripe?.secretKey) {
    const { secretKey, webhookSecret } = options.stripe;
    return {
      provider: stripeBilling({ secretKey, webhookSecret, clock: systemClock }),
      invoices: stripeInvoices(createStripe(secretKey)),
      clock: systemClock,
      standIn: null,
      standInUrl: null,
    };
  }
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const standIn = new StripeStandIn({ webhookSecret, followWallClock: true });
  const address = await standIn.listen();
  const apiBase = `http://${address.host}:${address.port}`;
  options.shutdown.register('Stripe stand-in', () => standIn.close());
  const secretKey = 'sk_test_local_stand_in';
  await syncStripePrices(createStripe(secretKey, apiBase), billingCatalogue(prices.plans, prices.addons));
  const clock: Clock = { now: () => new Date(standIn.now * 1000) };
  return {
    // Webhooks are signed at the stand-in's time, which its test clock moves ahead of ours.
    provider: stripeBilling({ secretKey, webhookSecret, apiBase, clock }),
    invoices: stripeInvoices(createStripe(secretKey, apiBase)),
    clock,
    standIn,
    standInUrl: apiBase,
  };
}

/**
 * Every chat platform pointed at the product's own stand-in under /dev/<platform>, with the
 * product-wide secrets the stand-ins sign and check with (kept in the data folder, so a restart
 * keeps links working).
 */
function standInChatSettings(url: () => string, secrets: StandInSecrets): () => ChatPlatformSettings {
  return () => {
    const base = (platform: string) => new URL(`dev/${platform}`, url()).toString();
    return {
      slack: {
        apiBase: `${base('slack')}/api`,
        oauthBase: base('slack'),
        clientId: 'mimamori-local',
        clientSecret: secrets.slackClientSecret,
        signingSecret: secrets.slackSigningSecret,
      },
      teams: { apiBase: base('teams') },
      line: {
        apiBase: base('line'),
        channelAccessToken: secrets.lineChannelAccessToken,
        channelSecret: secrets.lineChannelSecret,
        botBasicId: '@mimamori',
        addFriendUrl: `${base('line')}/friend`,
      },
      chatwork: { apiBase: base('chatwork') },
      telegram: {
        apiBase: base('telegram'),
        botToken: secrets.telegramBotToken,
        botUsername: 'mimamori_local_bot',
        webhookSecret: secrets.telegramWebhookSecret,
        deepLinkBase: base('telegram'),
      },
    };
  };
}

interface StandInSecrets {
  slackClientSecret: string;
  slackSigningSecret: string;
  lineChannelAccessToken: string;
  lineChannelSecret: string;
  telegramBotToken: string;
  telegramWebhookSecret: string;
}

async function keptStandInSecrets(dataDir: string): Promise<StandInSecrets> {
  const file = join(dataDir, 'chat-stand-in-secrets.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as StandInSecrets;
  } catch {
    const secret = () => randomBytes(24).toString('base64url');
    const made: StandInSecrets = {
      slackClientSecret: secret(),
      slackSigningSecret: secret(),
      lineChannelAccessToken: secret(),
      lineChannelSecret: secret(),
      telegramBotToken: `100000001:${secret()}`,
      telegramWebhookSecret: secret(),
    };
    await writeFile(file, JSON.stringify(made), { mode: 0o600 });
    return made;
  }
}
