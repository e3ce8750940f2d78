// Dispatch lag and rate of the scheduler at 100,000 one-minute sites on real PostgreSQL (a fresh
// database) and JetStream (a namespaced CHECKS stream). Two approaches in one run, each on its own
// stream: the scheduler's phase read (due times follow from a fixed phase per site, a tick reads
// an index range) and, as the baseline, claiming due rows with UPDATE … FOR UPDATE SKIP LOCKED
// (each claim rewrites the row's next due time). Each runs on the real clock for a full minute
// of schedule (every site falls due once), then drains a whole minute of schedule at once for
// the highest sustained dispatch rate. Lag = the publish's ack time minus the due time.
import { randomBytes, randomUUID } from 'node:crypto';
import { createJetStreamBus, type EventBus, namespacedBus, processedEventsMigration } from '@mimamori/bus';
import { checksEventsV1 } from '@mimamori/contracts';
import { type Db, migrate, openPostgres } from '@mimamori/db';
import { runCheck, streams } from '@mimamori/events';
import { createLogger } from '@mimamori/runtime';
import {
  createDispatcher,
  phaseOf,
  SCHEDULER_SCHEMA,
  schedulerMigrations,
  systemClock,
} from '@mimamori/scheduler';
// The fixtures' index loads vitest (its test fixtures), which cannot run outside a test; these
// two files are plain.
import { createFreshDatabase } from '../packages/test-fixtures/src/fresh-database.ts';
import { testDatabaseUrl, testNatsUrl } from '../packages/test-fixtures/src/server-urls.ts';
import { percentile, report } from './report.ts';

const sites = Number(process.env.BENCH_SITES ?? 100_000);
const runSeconds = Number(process.env.BENCH_SECONDS ?? 62);
const tickMs = 250;
const publishConcurrency = 256;
const claimBatch = 1_000;
const MINUTE = 60_000;

interface Figures {
  approach: string;
  dispatched: number;
  lagP50Ms: number;
  lagP99Ms: number;
  lagMaxMs: number;
  drainPerSecond: number;
}

const logger = createLogger({ service: 'bench', level: 'silent' });
const database = await createFreshDatabase(process.env.DATABASE_URL ?? testDatabaseUrl());
const db = openPostgres(database.url, { max: 10 });
const nats = process.env.NATS_URL ?? testNatsUrl();

try {
  await migrate(db, SCHEDULER_SCHEMA, [...schedulerMigrations, processedEventsMigration(SCHEDULER_SCHEMA)]);
  const ids = Array.from({ length: sites }, () => randomUUID());
  const templates = ids.map((id) =>
    Buffer.from(
      checksEventsV1.RunCheck.encode(
        checksEventsV1.RunCheck.fromPartial({
          targetId: id,
          userId: `user-${id.slice(0, 4)}`,
          url: `https://example.test/${id}`,
          fetchMode: 'http',
          screenshot: 'none',
          areas: [{ areaId: 'a1', locator: { selector: '#main', selectorType: 'css' } }],
        }),
      ).finish(),
    ),
  );
  const phases = ids.map((id) => phaseOf(id, `user-${id.slice(0, 4)}`, MINUTE));
  await insertSchedules(db, ids, phases, templates);
  await prepareClaimTable(db);

  const phaseRead = await measurePhaseRead(db);
  const claim = await measureClaim(db, ids, phases);

  const rows = [phaseRead, claim].map((run) => ({
    approach: run.approach,
    'checks dispatched in the minute': run.dispatched,
    'lag p50 (ms)': run.lagP50Ms,
    'lag p99 (ms)': run.lagP99Ms,
    'lag max (ms)': run.lagMaxMs,
    'drain rate (checks/s)': run.drainPerSecond,
  }));
  report(
    `scheduler: ${sites} sites at 1 minute, ${runSeconds} s on the real clock, tick ${tickMs} ms`,
    rows,
    {
      sites,
      interval_minutes: 1,
      run_seconds: runSeconds,
      tick_ms: tickMs,
      approach: 'phase_read',
      dispatched: phaseRead.dispatched,
      lag_p50_ms: phaseRead.lagP50Ms,
      lag_p99_ms: phaseRead.lagP99Ms,
      lag_max_ms: phaseRead.lagMaxMs,
      max_dispatch_per_s: phaseRead.drainPerSecond,
      baseline_skip_locked: {
        dispatched: claim.dispatched,
        lag_p50_ms: claim.lagP50Ms,
        lag_p99_ms: claim.lagP99Ms,
        lag_max_ms: claim.lagMaxMs,
        max_dispatch_per_s: claim.drainPerSecond,
      },
    },
  );
} finally {
  await db.close();
  await database.drop();
}

/** Bulk-inserts the schedule rows as the target events would have left them. */
async function insertSchedules(db: Db, ids: string[], phases: number[], templates: Buffer[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 5_000) {
    const end = start + 5_000;
    await db.query(
      `INSERT INTO scheduler.schedules
         (target_id, user_id, interval_ms, phase_ms, active, revision, changed_at, check_template)
       SELECT id, 'user-' || left(id, 4), ${MINUTE}, phase, true, 1, now(), template
         FROM unnest($1::text[], $2::bigint[], $3::bytea[]) AS t(id, phase, template)`,
      [ids.slice(start, end), phases.slice(start, end), templates.slice(start, end)],
    );
  }
  await db.query('ANALYZE scheduler.schedules');
}

/** The baseline's table: a next due time per site, rewritten by every claim. */
async function prepareClaimTable(db: Db): Promise<void> {
  await db.exec(`
    CREATE SCHEMA claim;
    CREATE TABLE claim.schedules (
      target_id text PRIMARY KEY,
      interval_ms bigint NOT NULL,
      next_due_at timestamptz NOT NULL,
      check_template bytea NOT NULL
    );
    CREATE INDEX claim_due ON claim.schedules (next_due_at);
  `);
  await db.query(
    `INSERT INTO claim.schedules (target_id, interval_ms, next_due_at, check_template)
     SELECT target_id, interval_ms, 'infinity', check_template FROM scheduler.schedules`,
  );
  await db.query('ANALYZE claim.schedules');
}

async function namespacedChecks(): Promise<EventBus> {
  const bus = namespacedBus(
    await createJetStreamBus({ servers: nats }),
    `bench${randomBytes(4).toString('hex')}`,
  );
  await bus.declareStreams([streams.checks]);
  return bus;
}

async function measurePhaseRead(db: Db): Promise<Figures> {
  const bus = await namespacedChecks();
  try {
    const lags: number[] = [];
    const dispatcher = createDispatcher({
      db,
      bus,
      clock: systemClock,
      logger,
      tickMs,
      publishConcurrency,
      onDispatched: ({ dueAt, publishedAt }) => lags.push(publishedAt.getTime() - dueAt.getTime()),
    });
    dispatcher.start();
    await sleep(runSeconds * 1_000);
    await dispatcher.stop();
    const figures = lagFigures(lags);

    // A whole minute of schedule at once, beyond the window the loop has already sent.
    const to = Date.now() + 10 * MINUTE;
    const started = performance.now();
    const drained = await dispatcher.dispatchWindow(new Date(to - (MINUTE - 1)), new Date(to));
    const drainPerSecond = Math.round(drained / ((performance.now() - started) / 1_000));
    return { approach: 'phase read (chosen)', ...figures, drainPerSecond };
  } finally {
    await bus.close();
  }
}

async function measureClaim(db: Db, ids: string[], phases: number[]): Promise<Figures> {
  const bus = await namespacedChecks();
  try {
    // The same spread: each site first due at its phase in the coming minute.
    const now = Date.now() + 1_000;
    const firstDue = phases.map((phase) => now + ((((phase - now) % MINUTE) + MINUTE) % MINUTE));
    for (let start = 0; start < ids.length; start += 10_000) {
      await db.query(
        `UPDATE claim.schedules s SET next_due_at = to_timestamp(t.due / 1000.0)
           FROM unnest($1::text[], $2::float8[]) AS t(id, due) WHERE s.target_id = t.id`,
        [ids.slice(start, start + 10_000), firstDue.slice(start, start + 10_000)],
      );
    }
    const lags: number[] = [];
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        await claimAndPublish(db, bus, new Date(), lags);
        await sleep(tickMs);
      }
    })();
    await sleep(runSeconds * 1_000);
    stopped = true;
    await loop;
    const figures = lagFigures(lags);

    await db.query(`UPDATE claim.schedules SET next_due_at = now() + interval '10 minutes'`);
    const started = performance.now();
    const drained = await claimAndPublish(db, bus, new Date(Date.now() + 11 * MINUTE), []);
    const drainPerSecond = Math.round(drained / ((performance.now() - started) / 1_000));
    return { approach: 'SKIP LOCKED claim (baseline)', ...figures, drainPerSecond };
  } finally {
    await bus.close();
  }
}

/** Claims due rows a batch at a time, moving each to its next due time, and publishes them. */
async function claimAndPublish(db: Db, bus: EventBus, now: Date, lags: number[]): Promise<number> {
  let published = 0;
  for (;;) {
    const { rows } = await db.query<{ target_id: string; due_ms: number; check_template: Buffer }>(
      `WITH due AS (
         SELECT target_id FROM claim.schedules WHERE next_due_at <= $1
          ORDER BY next_due_at LIMIT ${claimBatch} FOR UPDATE SKIP LOCKED
       )
       UPDATE claim.schedules s
          SET next_due_at = s.next_due_at + s.interval_ms * interval '1 millisecond'
         FROM due WHERE s.target_id = due.target_id
       RETURNING s.target_id, extract(epoch FROM s.next_due_at)::float8 * 1000 - s.interval_ms AS due_ms,
                 s.check_template`,
      [now],
    );
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++] as (typeof rows)[number];
        const dueAt = new Date(Math.round(row.due_ms));
        const checkId = `${row.target_id}:${dueAt.toISOString()}`;
        const check = { ...checksEventsV1.RunCheck.decode(row.check_template), checkId, dueAt };
        await bus.publish(runCheck.subject, runCheck.encode(check), { msgId: checkId });
        lags.push(Date.now() - dueAt.getTime());
      }
    };
    await Promise.all(Array.from({ length: Math.min(publishConcurrency, rows.length) }, worker));
    published += rows.length;
    if (rows.length < claimBatch) return published;
  }
}

function lagFigures(lags: number[]) {
  return {
    dispatched: lags.length,
    lagP50Ms: Math.round(percentile(lags, 0.5)),
    lagP99Ms: Math.round(percentile(lags, 0.99)),
    lagMaxMs: Math.round(Math.max(...lags)),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
