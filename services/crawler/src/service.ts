import type { BlobStore } from '@mimamori/blob-store';
import type { EventBus } from '@mimamori/bus';
import { streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { ServiceModule } from '@mimamori/service-host';
import type { PageFetcher } from './domain/page-fetcher.ts';
import { checkConsumer } from './events/check-consumer.ts';
import { createHttpPageFetcher } from './http/index.ts';

export interface CrawlerDeps {
  bus: EventBus;
  logger: Logger;
  blobs: BlobStore;
  /** Opens the job's sealed values; absent when no SECRET_KEYS are configured. */
  secrets?: SecretBox;
  /** Browser mode; browser-mode checks fail with invalid_job until one is given. */
  browser?: PageFetcher;
  concurrency?: number;
  ackWaitMs?: number;
  pageTimeoutMs?: number;
  proxies?: readonly string[];
  /** Tests only: host:port fixture servers the egress guard lets through. */
  allow?: readonly string[];
}

/**
 * Fetches pages, replays logins and actions, extracts areas, takes screenshots: consumes
 * check jobs from the CHECKS work queue and publishes a snapshot per check.
 */
export function createCrawlerService(deps: CrawlerDeps): ServiceModule {
  const http = createHttpPageFetcher({
    allow: deps.allow ?? [],
    ...(deps.pageTimeoutMs ? { timeoutMs: deps.pageTimeoutMs } : {}),
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
        fetchers: { http, ...(deps.browser ? { browser: deps.browser } : {}) },
        proxies: deps.proxies ?? [],
        concurrency: deps.concurrency ?? 8,
        ackWaitMs: deps.ackWaitMs ?? 60_000,
      }),
    ],
    async stop() {
      await Promise.all([http.close(), deps.browser?.close(), deps.blobs.close()]);
    },
  };
}
