import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { createFileBlobStore } from '@mimamori/blob-store';
import { createInProcessBus } from '@mimamori/bus';
import { accountV1, diffV1, filingsV1, targetV1 } from '@mimamori/contracts';
import { type CrawlerDeps, createCrawlerService } from '@mimamori/crawler';
import { openPglite } from '@mimamori/db';
import { createDiffService } from '@mimamori/diff';
import { createFilingsService, type FilingsSettings } from '@mimamori/filings';
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

export interface StandaloneOptions {
  host: string;
  port: number;
  dataDir: string;
  webDistDir?: string;
  /** Tests only: loopback fixture servers (host:port) the crawler may fetch. */
  crawlerAllow?: readonly string[];
  /** The crawler's proxy pool; without one the target service refuses a site's proxy option. */
  proxies?: readonly string[];
  /** The filings sources and their addresses; none is asked unless given (MIMAMORI_FILINGS_SOURCES). */
  filings?: FilingsSettings;
  logger: Logger;
  shutdown: Shutdown;
}

export interface Standalone {
  url: string;
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

  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const blobs = await createFileBlobStore(join(dataDir, 'blobs'));
  const services: Record<string, RunningService> = {};
  const modules = [
    createAccountService({ db, logger, secretBox, ...(discordApiBase ? { discordApiBase } : {}) }),
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
    createFilingsService({ db, logger, ...(options.filings ? { settings: options.filings } : {}) }),
  ];
  for (const module of modules) services[module.name] = await runService(module, host);

  const account = createGrpcClient(accountV1.AccountServiceClient, services.account?.grpcAddress ?? '');
  shutdown.register('account client', async () => account.close());
  // One crawler here: its session ids carry no address and all go to it (ADR 0011).
  const preview = previewCrawlers(services.crawler?.grpcAddress ?? '');
  shutdown.register('crawler client', async () => preview.close());
  const target = createGrpcClient(targetV1.TargetServiceClient, services.target?.grpcAddress ?? '');
  shutdown.register('target client', async () => target.close());
  const history = createGrpcClient(diffV1.HistoryServiceClient, services.diff?.grpcAddress ?? '');
  shutdown.register('diff client', async () => history.close());
  const filings = createGrpcClient(filingsV1.FilingsServiceClient, services.filings?.grpcAddress ?? '');
  shutdown.register('filings client', async () => filings.close());
  const gateway = await createGatewayService({
    logger: logger.child({ service: 'gateway' }),
    account,
    preview,
    secretBox,
    target,
    history: { client: history, blobs },
    filings,
    webDistDir: options.webDistDir,
    mailbox,
    discordStandIn,
    isShuttingDown: shutdown.isShuttingDown,
    listen: { host: options.host, port: options.port },
  });
  services.gateway = await runService(gateway, host);
  url = services.gateway.url ?? '';
  return { url, mailbox, services };
}
