import type { BlobStore } from '@mimamori/blob-store';
import { outboxMigration, processedEventsMigration } from '@mimamori/bus';
import { diffV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import type { ServiceModule } from '@mimamori/service-host';
import { diffConsumers } from './consumers/diff-consumers.ts';
import type { WatchSettingsSource } from './domain/watch-settings.ts';
import { historyServer } from './grpc/history-server.ts';
import { DIFF_SCHEMA, diffMigrations } from './store/migrations.ts';

export interface DiffServiceOptions {
  db: Db;
  logger: Logger;
  /** Snapshot content too large for events, screenshots, and the before/after images it writes. */
  blobs: BlobStore;
  /** Where a site's areas, options and rules are read (the target service). */
  settings: WatchSettingsSource;
  /** Snapshots judged at once. */
  concurrency?: number;
  now?: () => Date;
}

/**
 * Runs the watch engine on snapshots: records each check's result, the area versions and the
 * updates with their diffs and before/after images, publishes checks.completed and
 * changes.detected through the outbox, and serves the site-detail history.
 */
export function createDiffService(options: DiffServiceOptions): ServiceModule {
  const { db, logger, blobs, settings } = options;
  return {
    name: 'diff',
    schema: DIFF_SCHEMA,
    migrations: [...diffMigrations, outboxMigration(DIFF_SCHEMA), processedEventsMigration(DIFF_SCHEMA)],
    streams: [streams.snapshots, streams.targets, streams.checkResults, streams.changes],
    outbox: true,
    grpc: [{ definition: diffV1.HistoryServiceService, implementation: historyServer(db) }],
    consumers: diffConsumers(db, {
      blobs,
      settings,
      logger,
      now: options.now ?? (() => new Date()),
      concurrency: options.concurrency ?? 4,
    }),
  };
}
