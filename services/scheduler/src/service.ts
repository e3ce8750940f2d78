import { type EventBus, processedEventsMigration } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import { createMetrics, type Logger, type Metrics, scaledMs } from '@mimamori/runtime';
import type { ServiceModule } from '@mimamori/service-host';
import { createDispatcher, type DispatcherOptions } from './dispatch/dispatcher.ts';
import { type Clock, systemClock } from './domain/clock.ts';
import { MINUTE_MS } from './domain/phase.ts';
import { accountConsumers } from './events/account-consumers.ts';
import { accountPurgedConsumer } from './events/account-purged.ts';
import { checkResultConsumers } from './events/check-result-consumers.ts';
import { checkStateConsumers } from './events/check-state-consumers.ts';
import { targetConsumers } from './events/target-consumers.ts';
import { SCHEDULER_SCHEMA, schedulerMigrations } from './store/migrations.ts';

export interface SchedulerServiceOptions {
  db: Db;
  bus: EventBus;
  logger: Logger;
  clock?: Clock;
  /** Time between dispatch ticks (250 ms unless told). */
  tickMs?: number;
  /** How many times faster the product's minutes pass (1 unless told; more only in test runs). */
  timeScale?: number;
  /** The longest a failing site waits between checks (6 hours unless told). */
  backoffMaxMs?: number;
  /** checks.run publishes in flight at once (256 unless told). */
  publishConcurrency?: number;
  /** The most checks.run published per second (2,000 unless told). */
  dispatchCeilingPerSecond?: number;
  /** Told of every check this instance published (tests and benches count them). */
  onDispatched?: DispatcherOptions['onDispatched'];
  /** The registry /metrics serves; a private one when the process serves none (single-process mode). */
  metrics?: Metrics;
}

/**
 * Dispatches due checks on time for every monitored site: the schedule follows targets.*
 * (and account holds), a dispatcher publishes checks.run at each site's due times, and
 * checks.completed backs off sites that keep failing.
 */
export function createSchedulerService(options: SchedulerServiceOptions): ServiceModule {
  const { db, bus, logger } = options;
  const timeScale = options.timeScale ?? 1;
  const minuteMs = scaledMs(MINUTE_MS, timeScale);
  const lag = (options.metrics ?? createMetrics({ service: 'scheduler' })).histogram({
    name: 'mimamori_dispatch_lag_seconds',
    help: "Time from a check's due time to JetStream's ack of its checks.run.",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
  });
  const dispatcher = createDispatcher({
    db,
    bus,
    logger,
    clock: options.clock ?? systemClock,
    tickMs: options.tickMs ?? 250,
    minuteMs,
    publishConcurrency: options.publishConcurrency ?? 256,
    ceilingPerSecond: options.dispatchCeilingPerSecond ?? 2_000,
    onDispatched(check) {
      lag.observe(Math.max(0, check.publishedAt.getTime() - check.dueAt.getTime()) / 1000);
      options.onDispatched?.(check);
    },
  });
  // Ticks wait for the schema to exist, so starting before the host migrates is safe.
  dispatcher.start();
  return {
    name: 'scheduler',
    schema: SCHEDULER_SCHEMA,
    migrations: [...schedulerMigrations, processedEventsMigration(SCHEDULER_SCHEMA)],
    streams: [streams.targets, streams.accounts, streams.checks, streams.checkResults, streams.snapshots],
    consumers: [
      ...targetConsumers(db, logger, minuteMs),
      ...accountConsumers(db, logger),
      accountPurgedConsumer(db),
      ...checkResultConsumers(db, logger, scaledMs(options.backoffMaxMs ?? 6 * 3_600_000, timeScale)),
      ...checkStateConsumers(db, logger),
    ],
    stop: () => dispatcher.stop(),
  };
}
