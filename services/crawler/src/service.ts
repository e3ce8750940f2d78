import type { BlobStore } from '@mimamori/blob-store';
import type { EventBus } from '@mimamori/bus';
import { crawlerV1 } from '@mimamori/contracts';
import type { AllowedPages } from '@mimamori/egress';
import { streams } from '@mimamori/events';
import { createMetrics, type Logger, type Metrics, scaledMs } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { ServiceModule } from '@mimamori/service-host';
import { browserMemoryBytes } from './browser/browser-memory.ts';
import { createBrowserPageFetcher } from './browser/browser-page-fetcher.ts';
import { createBrowserPool } from './browser/browser-pool.ts';
import type { PageFetcher } from './domain/page-fetcher.ts';
import { DEFAULT_REVALIDATION_POLICY } from './domain/revalidation.ts';
import { checkConsumer } from './events/check-consumer.ts';
import { previewServer } from './grpc/preview-server.ts';
import { createHttpPageFetcher, RETRY_DELAY_MS } from './http/index.ts';
import { createPreviewService } from './preview/preview-service.ts';

export interface CrawlerDeps {
  bus: EventBus;
  logger: Logger;
  blobs: BlobStore;
  /** Opens the job's sealed values; absent when no SECRET_KEYS are configured. */
  secrets?: SecretBox;
  /** Browser mode; by default a fetcher on the pool the wizard preview also uses. */
  browser?: PageFetcher;
  concurrency?: number;
  ackWaitMs?: number;
  pageTimeoutMs?: number;
  proxies?: readonly string[];
  /**
   * host:port the gateway reaches this process's gRPC server at (a pod's IP); wizard preview
   * session ids carry it so, with several crawlers, each call reaches the one holding the page.
   */
  previewHome?: string;
  /** Tests only: host:port fixture servers the egress guard lets through. */
  allow?: readonly string[];
  /** Single-process mode only: the product's own demo shop, reached by the browser (ADR 0006). */
  allowPages?: () => readonly AllowedPages[];
  /** The registry /metrics serves; a private one when the process serves none (single-process mode). */
  metrics?: Metrics;
  /** One browser check in this many renders whatever its recorded answers (ADR 0031); 0: none. */
  forcedRenderEvery?: number;
  /** Tests only: how many times faster the product's time passes (the pause between a check's tries). */
  timeScale?: number;
}

/**
 * Fetches pages, replays logins and actions, extracts areas, takes screenshots: consumes
 * check jobs from the CHECKS work queue and publishes a snapshot per check.
 */
export function createCrawlerService(deps: CrawlerDeps): ServiceModule {
  const http = createHttpPageFetcher({
    allow: deps.allow ?? [],
    retryDelayMs: scaledMs(RETRY_DELAY_MS, deps.timeScale ?? 1),
    ...(deps.pageTimeoutMs ? { timeoutMs: deps.pageTimeoutMs } : {}),
  });
  // Browser-mode checks and the wizard preview share one pool; Chromium starts on first use.
  const pool = createBrowserPool({
    allow: deps.allow ?? [],
    ...(deps.allowPages ? { allowPages: deps.allowPages } : {}),
    logger: deps.logger,
  });
  // The loopback fixtures a test allows are asked again over HTTP too, and the render's time limit
  // is product time (ADR 0031), so a scaled test sees what a day of checks would.
  const browser =
    deps.browser ??
    createBrowserPageFetcher({
      pool,
      allow: deps.allow ?? [],
      revalidation: {
        renderEvery: deps.forcedRenderEvery ?? DEFAULT_REVALIDATION_POLICY.renderEvery,
        maxAgeMs: scaledMs(DEFAULT_REVALIDATION_POLICY.maxAgeMs, deps.timeScale ?? 1),
      },
    });
  const metrics = deps.metrics ?? createMetrics({ service: 'crawler' });
  metrics.gauge({
    name: 'mimamori_browser_pool_browsers',
    help: 'Chromium processes the browser pool is running.',
    collect: (gauge) => gauge.set(pool.size().browsers),
  });
  metrics.gauge({
    name: 'mimamori_browser_pool_pages_in_use',
    help: 'Pages open in the pool for checks and wizard previews.',
    collect: (gauge) => gauge.set(pool.size().pages),
  });
  metrics.gauge({
    name: 'mimamori_browser_memory_bytes',
    help: "Resident memory of the crawler's Chromium processes.",
    collect: async (gauge) => gauge.set(await browserMemoryBytes()),
  });
  const preview = createPreviewService({
    pool,
    httpFetcher: http,
    proxyPool: deps.proxies ?? [],
    ...(deps.previewHome ? { home: deps.previewHome } : {}),
  });
  return {
    name: 'crawler',
    schema: 'crawler',
    migrations: [],
    streams: [streams.checks, streams.snapshots],
    consumers: [
      checkConsumer({
        bus: deps.bus,
        blobs: deps.blobs,
        secrets: deps.secrets,
        logger: deps.logger.child({ service: 'crawler' }),
        fetchers: { http, browser },
        proxies: deps.proxies ?? [],
        concurrency: deps.concurrency ?? 8,
        ackWaitMs: deps.ackWaitMs ?? 60_000,
        metrics,
      }),
    ],
    grpc: [
      { definition: crawlerV1.PreviewServiceService, implementation: previewServer(preview, deps.secrets) },
    ],
    async stop() {
      await preview.closeAll();
      await Promise.all([http.close(), browser.close(), pool.close(), deps.blobs.close()]);
    },
  };
}
