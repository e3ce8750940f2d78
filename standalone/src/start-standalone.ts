import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { createFileBlobStore } from '@mimamori/blob-store';
import { createInProcessBus } from '@mimamori/bus';
import { accountV1, billingV1, diffV1, targetV1 } from '@mimamori/contracts';
import { type CrawlerDeps, createCrawlerService } from '@mimamori/crawler';
import { openPglite } from '@mimamori/db';
import { createDiffService } from '@mimamori/diff';
import { createFilingsService } from '@mimamori/filings';
import {
  createGatewayService,
  DISCORD_STAND_IN_PATH,
  listensOnLoopbackOnly,
  previewCrawlers,
} from '@mimamori/gateway';
import { createMailbox, type Mailbox } from '@mimamori/mail';
import { accountProfileClient, createNotifierService } from '@mimamori/notifier';
import { createGrpcClient, type Logger, type Shutdown } from '@mimamori/runtime';
import { createSchedulerService } from '@mimamori/scheduler';
import { createSecretBox, keptSecretKeys } from '@mimamori/secret-box';
import { type RunningService, runService } from '@mimamori/service-host';
import { createTargetService } from '@mimamori/target';
import { type StandaloneBillingOptions, standaloneBilling } from './standalone-billing.ts';

export interface StandaloneOptions {
  host: string;
  port: number;
  dataDir: string;
  webDistDir?: string;
  /** Tests only: loopback fixture servers (host:port) the crawler may fetch. */
  crawlerAllow?: readonly string[];
  /** The crawler's proxy pool; without one the target service refuses a site's proxy option. */
  proxies?: readonly string[];
  /** Stripe keys and prices (docs/billing.md); without keys, on loopback, the local stand-in. */
  billing?: Omit<StandaloneBillingOptions, 'loopbackOnly' | 'shutdown'> & {
    /** How often the account service looks for ended trials and passed hold deadlines. */
    sweepIntervalMs?: number;
  };
  logger: Logger;
  shutdown: Shutdown;
}

export interface Standalone {
  url: string;
  /** The local Stripe stand-in's API address (its test clocks move billing's time), when it runs. */
  stripeStandInUrl?: string;
  mailbox: Mailbox;
  services: Record<string, RunningService>;
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
  const bus = createInProcessBus();
  shutdown.register('bus', () => bus.close());
  const mailbox = await createMailbox(join(dataDir, 'mailbox'), { from: MAIL_FROM });

  const secretBox = createSecretBox(await keptSecretKeys(join(dataDir, 'secret-keys')));
  let url = '';
  // The crawler's browser may open this product's own demo shop and the script files it runs,
  // nothing else of its origin (ADR 0006). Empty until the gateway listens and the port is known.
  const ownDemoShop: CrawlerDeps['allowPages'] = () =>
    url ? [{ origin: new URL(url).origin, paths: [DEMO_SHOP_PATH, '/assets/'] }] : [];

  // Listening on loopback only, Discord messages go to the product's own /dev/discord page, so
  // they can be seen without a Discord webhook; reachable from elsewhere, they go to Discord.
  const discordStandIn = listensOnLoopbackOnly(options.host);
  const discordApiBase = discordStandIn ? () => new URL(DISCORD_STAND_IN_PATH, url).toString() : undefined;

  const billing = await standaloneBilling({
    stripe: options.billing?.stripe ?? { secretKey: '', webhookSecret: '', apiBase: '', publishableKey: '' },
    planPrices: options.billing?.planPrices ?? {},
    addonPrices: options.billing?.addonPrices ?? {},
    renewalGraceDays: options.billing?.renewalGraceDays ?? 7,
    loopbackOnly: listensOnLoopbackOnly(options.host),
    shutdown,
  });

  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const blobs = await createFileBlobStore(join(dataDir, 'blobs'));
  const services: Record<string, RunningService> = {};
  const modules = [
    createAccountService({
      db,
      logger,
      secretBox,
      clock: billing.clock,
      prices: options.billing?.planPrices ?? {},
      addonPrices: options.billing?.addonPrices ?? {},
      billing: billing.billing,
      ...(options.billing?.sweepIntervalMs ? { sweepIntervalMs: options.billing.sweepIntervalMs } : {}),
      ...(discordApiBase ? { discordApiBase } : {}),
    }),
    createTargetService({ db, logger, secretBox, proxyPool: (options.proxies ?? []).length > 0 }),
    createSchedulerService({ db, bus, logger }),
    // Screenshots and large area content stay in the data folder.
    createCrawlerService({
      bus,
      logger,
      blobs,
      allow: options.crawlerAllow ?? [],
      allowPages: ownDemoShop,
      secrets: secretBox,
      proxies: options.proxies ?? [],
    }),
    createDiffService({ db, logger, blobs }),
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
        ...(discordApiBase ? { discordApiBase } : {}),
      },
    }),
    createFilingsService({ db, logger }),
  ];
  for (const module of modules) services[module.name] = await runService(module, host);

  const account = createGrpcClient(accountV1.AccountServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('account client', async () => account.close());
  // Always there: without billing the account service answers billing_off, which the screens say.
  const billingClient = createGrpcClient(billingV1.BillingServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('billing client', async () => billingClient.close());
  // One crawler here: its session ids carry no address and all go to it (ADR 0011).
  const preview = previewCrawlers(services.crawler?.grpcAddress ?? '');
  shutdown.register('crawler client', async () => preview.close());
  const target = createGrpcClient(targetV1.TargetServiceClient, services.target?.grpcAddress ?? '');
  shutdown.register('target client', async () => target.close());
  const history = createGrpcClient(diffV1.HistoryServiceClient, services.diff?.grpcAddress ?? '');
  shutdown.register('diff client', async () => history.close());
  const gateway = await createGatewayService({
    logger: logger.child({ service: 'gateway' }),
    account,
    billing: billingClient,
    stripePublishableKey: billing.publishableKey,
    preview,
    secretBox,
    target,
    history: { client: history, blobs },
    webDistDir: options.webDistDir,
    mailbox,
    discordStandIn,
    isShuttingDown: shutdown.isShuttingDown,
    listen: { host: options.host, port: options.port },
  });
  services.gateway = await runService(gateway, host);
  url = services.gateway.url ?? '';
  billing.listening(url);
  return { url, mailbox, services, ...(billing.standInUrl ? { stripeStandInUrl: billing.standInUrl } : {}) };
}
