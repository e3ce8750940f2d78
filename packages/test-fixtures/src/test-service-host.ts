import { randomBytes } from 'node:crypto';
import { createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { type Db, openPostgres } from '@mimamori/db';
import { createLogger, createShutdown, type Logger, type Shutdown } from '@mimamori/runtime';
import { createFreshDatabase } from './fresh-database.ts';
import { testNatsUrl } from './server-urls.ts';

/**
 * What a test runs services on the service host with: a fresh database, a JetStream namespace of its
 * own (so test files running side by side never see each other's messages), a silent logger and a
 * shutdown. `host` is what runService takes, with gRPC on a free local port.
 */
export interface TestServiceHost {
  readonly db: Db;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly shutdown: Shutdown;
  readonly host: {
    db: Db;
    bus: EventBus;
    logger: Logger;
    shutdown: Shutdown;
    grpc: { host: string; port: number };
  };
  /** Stops what runs on the host, closes the bus and the database, and drops the database. */
  close(): Promise<void>;
}

export async function startTestServiceHost(service: string): Promise<TestServiceHost> {
  const logger = createLogger({ service, level: 'silent' });
  const database = await createFreshDatabase();
  const db = openPostgres(database.url);
  const bus = namespacedBus(
    await createJetStreamBus({ servers: testNatsUrl() }),
    `t${randomBytes(4).toString('hex')}`,
  );
  const shutdown = createShutdown({ logger, timeoutMs: 5_000 });
  return {
    db,
    bus,
    logger,
    shutdown,
    host: { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } },
    async close() {
      await shutdown.run('test finished');
      await bus.close();
      await db.close();
      await database.drop();
    },
  };
}

/** Time a service sees in a test; the test moves it (past a trial's end, a token's expiry) instead of waiting. */
export class TestClock {
  private at = new Date();
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}
