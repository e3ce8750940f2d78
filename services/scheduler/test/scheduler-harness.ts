import { randomBytes, randomUUID } from 'node:crypto';
import { type BusMessage, createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { checksEventsV1, type targetsEventsV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import {
  checkCompleted,
  checkStateKept,
  runCheck,
  streams,
  targetDeleted,
  targetPaused,
  targetRegistered,
  targetResumed,
  targetUpdated,
  trialEnded,
} from '@mimamori/events';
import { createLogger, createShutdown, type Logger, type Shutdown } from '@mimamori/runtime';
import { runService } from '@mimamori/service-host';
import { createFreshDatabase, type FreshDatabase, testNatsUrl, watchBus } from '@mimamori/test-fixtures';
import { createDispatcher, type Dispatcher } from '../src/dispatch/dispatcher.ts';
import type { Clock } from '../src/domain/clock.ts';
import { createSchedulerService, type SchedulerServiceOptions } from '../src/service.ts';

export const MINUTE = 60_000;

/** Time the tests move by hand. */
export class ManualClock implements Clock {
  constructor(private at: number) {}
  now(): Date {
    return new Date(this.at);
  }
  set(ms: number): void {
    this.at = ms;
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

export interface Site {
  targetId: string;
  userId: string;
  intervalMinutes: number;
  revision: number;
  paused?: boolean;
  url?: string;
}

export interface SchedulerHarness {
  db: Db;
  bus: EventBus;
  namespace: string;
  logger: Logger;
  databaseUrl: string;
  /** A scheduler service on the service host; its own loop ticks only when told to (tickMs). */
  startScheduler(options?: Partial<SchedulerServiceOptions> & { ownConnections?: boolean }): Promise<void>;
  /** Shuts the started schedulers down as SIGTERM would (an in-flight tick finishes). */
  stopSchedulers(): Promise<void>;
  /** A dispatcher over the harness's database and bus, driven by `tick()`; `minuteMs` as the service's. */
  dispatcher(clock: Clock, minuteMs?: number): Dispatcher;
  publishState(kind: 'registered' | 'updated' | 'paused' | 'resumed', site: Site, at?: Date): Promise<void>;
  publishDeleted(site: Site): Promise<void>;
  publishTrialEnded(userId: string, endedAt: Date): Promise<void>;
  publishResult(targetId: string, dueAt: Date, outcome: 'error' | 'no_change' | 'update'): Promise<void>;
  /** Publishes what the check due at `dueAt` left for the next ones, as the crawler does. */
  publishKeptState(
    targetId: string,
    dueAt: Date,
    kept: { sealedSessionState?: string; areasDigest?: string; sealedRevalidationState?: string },
  ): Promise<void>;
  /** Waits until the schedule row holds this revision (or is gone, for undefined). */
  untilApplied(targetId: string, revision: number | undefined): Promise<void>;
  /** Waits until the schedule counted the result of the check due at `dueAt`. */
  untilResultCounted(targetId: string, dueAt: Date): Promise<void>;
  /** Waits until the consumers recorded `count` events in processed_events. */
  untilProcessed(consumer: string, count: number): Promise<void>;
  /** Every checks.run published since the last call, in stream order (duplicates included). */
  takeChecks(): Promise<checksEventsV1.RunCheck[]>;
  close(): Promise<void>;
}

/**
 * The scheduler as it runs in the cluster, in this process: a fresh PostgreSQL database, a
 * JetStream namespace of its own, the service module on the service host; events arrive
 * through JetStream and dispatched checks are read back from the CHECKS work queue.
 */
export async function startSchedulerHarness(): Promise<SchedulerHarness> {
  const logger = createLogger({ service: 'scheduler-test', level: 'silent' });
  const database: FreshDatabase = await createFreshDatabase();
  const db = openPostgres(database.url);
  const namespace = `s${randomBytes(4).toString('hex')}`;
  const bus = namespacedBus(await createJetStreamBus({ servers: testNatsUrl() }), namespace);
  const busWatch = await watchBus(testNatsUrl(), namespace);
  /** Where each result published went: a success while the site works leaves no row to read (ADR 0032). */
  const resultAcks = new Map<string, { stream: string; seq: number }>();
  await bus.declareStreams([
    streams.targets,
    streams.accounts,
    streams.checks,
    streams.checkResults,
    streams.snapshots,
  ]);
  const shutdowns: Shutdown[] = [];
  const closers: (() => Promise<void>)[] = [];

  const received: checksEventsV1.RunCheck[] = [];
  const sentinels = new Set<string>();
  await bus.consume(
    {
      stream: streams.checks.name,
      durable: 'test-crawler',
      ackWaitMs: 30_000,
      maxDeliver: 5,
      concurrency: 1,
    },
    async (message: BusMessage) => {
      if (message.msgId.startsWith('sentinel:')) {
        sentinels.add(message.msgId);
        return;
      }
      received.push(runCheck.decode(message.data));
    },
  );

  const stopSchedulers = async () => {
    for (const shutdown of shutdowns.splice(0)) await shutdown.run('test finished');
    for (const close of closers.splice(0)) await close();
  };

  const publishState: SchedulerHarness['publishState'] = async (kind, site, at = new Date()) => {
    const type = {
      registered: targetRegistered,
      updated: targetUpdated,
      paused: targetPaused,
      resumed: targetResumed,
    }[kind];
    const eventId = `${type.subject}:${site.targetId}:${site.revision}`;
    const event: targetsEventsV1.TargetStateChanged = {
      eventId,
      targetId: site.targetId,
      userId: site.userId,
      version: 2,
      revision: site.revision,
      intervalMinutes: site.intervalMinutes,
      paused: site.paused ?? false,
      pausedReason: site.paused ? 'user' : '',
      check: checksEventsV1.RunCheck.fromPartial({
        targetId: site.targetId,
        userId: site.userId,
        url: site.url ?? `https://example.test/${site.targetId}`,
        fetchMode: 'http',
        screenshot: 'none',
        areas: [{ areaId: 'a1', locator: { selector: '#price', selectorType: 'css' } }],
        watch: {
          areas: [{ areaId: 'a1', optionsJson: '{"excludeNumbers":true}' }],
          rulesJson: '',
          screenshot: false,
        },
      }),
      occurredAt: at,
    };
    await bus.publish(type.subject, type.encode(event), { msgId: eventId });
  };

  return {
    db,
    bus,
    namespace,
    logger,
    databaseUrl: database.url,
    async startScheduler(options = {}) {
      const shutdown = createShutdown({ logger, timeoutMs: 10_000 });
      shutdowns.push(shutdown);
      let serviceDb = db;
      let serviceBus = bus;
      if (options.ownConnections) {
        serviceDb = openPostgres(database.url);
        serviceBus = namespacedBus(await createJetStreamBus({ servers: testNatsUrl() }), namespace, {
          keepStreams: true,
        });
        closers.push(async () => {
          await serviceBus.close();
          await serviceDb.close();
        });
      }
      await runService(
        createSchedulerService({ tickMs: 3_600_000, ...options, db: serviceDb, bus: serviceBus, logger }),
        { db: serviceDb, bus: serviceBus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } },
      );
    },
    stopSchedulers,
    dispatcher(clock, minuteMs) {
      return createDispatcher({
        db,
        bus,
        clock,
        logger,
        tickMs: 3_600_000,
        publishConcurrency: 32,
        ...(minuteMs ? { minuteMs } : {}),
      });
    },
    publishState,
    async publishDeleted(site) {
      const eventId = `${targetDeleted.subject}:${site.targetId}`;
      await bus.publish(
        targetDeleted.subject,
        targetDeleted.encode({
          eventId,
          targetId: site.targetId,
          userId: site.userId,
          revision: site.revision,
          occurredAt: new Date(),
        }),
        { msgId: eventId },
      );
    },
    async publishTrialEnded(userId, endedAt) {
      const eventId = `trial-ended:${userId}`;
      await bus.publish(
        trialEnded.subject,
        trialEnded.encode({ eventId, userId, endedAt, deleteAt: undefined }),
        {
          msgId: eventId,
        },
      );
    },
    async publishResult(targetId, dueAt, outcome) {
      const checkId = `${targetId}:${dueAt.toISOString()}`;
      const eventId = `checked:${checkId}`;
      const ack = await bus.publish(
        checkCompleted.subject,
        checkCompleted.encode({
          eventId,
          checkId,
          targetId,
          userId: 'u',
          dueAt,
          completedAt: new Date(dueAt.getTime() + 5_000),
          outcome,
          errorCode: outcome === 'error' ? 'unreachable' : '',
          errorDetail: '',
          updateId: '',
          errorAreaId: '',
        }),
        { msgId: eventId },
      );
      resultAcks.set(checkId, { stream: `${namespace}_${ack.stream}`, seq: ack.seq });
    },
    async publishKeptState(targetId, dueAt, kept) {
      const checkId = `${targetId}:${dueAt.toISOString()}`;
      await bus.publish(
        checkStateKept.subject,
        checkStateKept.encode({
          eventId: `state:${checkId}`,
          checkId,
          targetId,
          dueAt,
          sealedSessionState: kept.sealedSessionState ?? '',
          areasDigest: kept.areasDigest ?? '',
          sealedRevalidationState: kept.sealedRevalidationState ?? '',
        }),
        { msgId: `state:${checkId}` },
      );
    },
    async untilApplied(targetId, revision) {
      await eventually(async () => {
        const { rows } = await db.query<{ revision: string }>(
          'SELECT revision FROM scheduler.schedules WHERE target_id = $1',
          [targetId],
        );
        const held = rows[0] ? Number(rows[0].revision) : undefined;
        return held === revision;
      }, `schedule of ${targetId} at revision ${revision}`);
    },
    async untilResultCounted(targetId, dueAt) {
      await eventually(async () => {
        const { rows } = await db.query<{ counted: boolean }>(
          'SELECT last_result_due_at >= $2 AS counted FROM scheduler.schedules WHERE target_id = $1',
          [targetId, dueAt],
        );
        if (rows[0]?.counted === true) return true;
        const ack = resultAcks.get(`${targetId}:${dueAt.toISOString()}`);
        return (
          ack !== undefined && (await busWatch.consumed(ack.stream, 'scheduler-check-completed', ack.seq))
        );
      }, `the result due at ${dueAt.toISOString()} counted`);
    },
    async untilProcessed(consumer, count) {
      await eventually(async () => {
        const { rows } = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM scheduler.processed_events WHERE consumer = $1',
          [consumer],
        );
        return (rows[0]?.n ?? 0) >= count;
      }, `${count} events processed by ${consumer}`);
    },
    async takeChecks() {
      // The queue is read in order by one handler at a time: once a marker published after
      // everything else arrives, every check before it has arrived too.
      const sentinel = `sentinel:${randomUUID()}`;
      await bus.publish(runCheck.subject, new Uint8Array(), { msgId: sentinel });
      await eventually(async () => sentinels.has(sentinel), 'the checks queue drained');
      return received.splice(0);
    },
    async close() {
      await stopSchedulers();
      await busWatch.close();
      await bus.close();
      await db.close();
      await database.drop();
    },
  };
}

/** Polls until `condition` holds; fails the test with `what` after 15 s. */
export async function eventually(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A site of a fresh user, registered at revision 1. */
export function newSite(intervalMinutes = 1, userId = `user-${randomUUID()}`): Site {
  return { targetId: randomUUID(), userId, intervalMinutes, revision: 1 };
}
