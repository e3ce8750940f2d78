import type { BlobStore } from '@mimamori/blob-store';
import { type EventBus, outboxMigration, processedEventsMigration } from '@mimamori/bus';
import { diffV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import type { ServiceModule } from '@mimamori/service-host';
import { accountPurgedEntry } from './events/account-purged.ts';
import { snapshotCapturedEntry } from './events/snapshot-captured.ts';
import { targetDeletedEntry } from './events/target-deleted.ts';
import { historyServer } from './grpc/history-server.ts';
import { nightlyHistorySweep } from './retention/history-sweep.ts';
import { DIFF_SCHEMA, diffMigrations } from './store/migrations.ts';

export interface DiffServiceOptions {
  db: Db;
  /** An unchanged check's checks.completed is published on it directly (ADR 0032). */
  bus: EventBus;
  logger: Logger;
  /** Snapshot content too large for events, screenshots, and the before/after images it writes. */
  blobs: BlobStore;
  /** Snapshots judged at once. */
  concurrency?: number;
  now?: () => Date;
}

/**
 * Runs the watch engine on snapshots, with the watch settings each check carries: records each
 * check's result, the area versions and the updates with their diffs and before/after images,
 * publishes updates.detected and the checks.completed of updates and errors through the outbox (an
 * unchanged check's directly, ADR 0032), and serves the site-detail
 * history. It calls no other service.
 */
export function createDiffService(options: DiffServiceOptions): ServiceModule {
  const { db, bus, logger, blobs } = options;
  return {
    name: 'diff',
    schema: DIFF_SCHEMA,
    migrations: [...diffMigrations, outboxMigration(DIFF_SCHEMA), processedEventsMigration(DIFF_SCHEMA)],
    // ACCOUNTS: a deleted account's purge.
    streams: [streams.snapshots, streams.targets, streams.checkResults, streams.updates, streams.accounts],
    outbox: true,
    grpc: [{ definition: diffV1.HistoryServiceService, implementation: historyServer(db, blobs) }],
    consumers: [
      snapshotCapturedEntry(db, {
        blobs,
        bus,
        logger,
        now: options.now ?? (() => new Date()),
        concurrency: options.concurrency ?? 4,
      }),
      targetDeletedEntry(db, { blobs, logger }),
      accountPurgedEntry(db, { blobs, logger }),
    ],
    sweep: nightlyHistorySweep({ db, blobs, logger, now: options.now ?? (() => new Date()) }),
  };
}
