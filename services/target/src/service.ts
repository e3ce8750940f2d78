import { randomUUID } from 'node:crypto';
import { outboxMigration, processedEventsMigration } from '@mimamori/bus';
import { targetV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { ServiceModule } from '@mimamori/service-host';
import { accountConsumers } from './events/account-consumers.ts';
import { accountPurgedConsumer } from './events/account-purged.ts';
import { checkConsumer } from './events/check-consumer.ts';
import { targetServer } from './grpc/target-server.ts';
import { TARGET_SCHEMA, targetMigrations } from './store/migrations.ts';
import { createTargetStore } from './store/target-store.ts';

export interface TargetServiceOptions {
  db: Db;
  logger: Logger;
  /** Seals cookies, login and action texts and per-site Discord webhooks at rest. */
  secretBox: SecretBox;
  /**
   * Whether the crawlers have a proxy pool (CRAWLER_PROXIES). Without one (the default) a
   * site's proxy option is refused at registration: it would do nothing.
   */
  proxyPool?: boolean;
}

/**
 * Monitored sites (v1 and v2): registration and settings, pause/resume/delete under the plan's
 * quota, the site list, and bulk import. Every change is published on targets.* through the
 * outbox; account holds and cancellations arrive from accounts.*, check results from checks.completed.
 */
export function createTargetService(options: TargetServiceOptions): ServiceModule {
  const { db, logger, secretBox } = options;
  const targets = createTargetStore(db);
  const implementation = targetServer({
    targets,
    seal: (plaintext, context) => secretBox.seal(plaintext, context),
    proxyPool: options.proxyPool ?? false,
    newId: randomUUID,
  });
  return {
    name: 'target',
    schema: TARGET_SCHEMA,
    migrations: [
      ...targetMigrations,
      outboxMigration(TARGET_SCHEMA),
      processedEventsMigration(TARGET_SCHEMA),
    ],
    streams: [streams.targets, streams.accounts, streams.checkResults],
    outbox: true,
    grpc: [{ definition: targetV1.TargetServiceService, implementation }],
    consumers: [...accountConsumers(db, targets, logger), accountPurgedConsumer(db), checkConsumer(targets)],
  };
}
