import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { checksEventsV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import { snapshotCaptured, streams, targetRegistered } from '@mimamori/events';
import { createLogger, createShutdown, type Shutdown } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { createFreshDatabase, type FreshDatabase, testNatsUrl } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sealingContext } from '../services/crawler/src/domain/open-check-job.ts';
import { type CrawlerProcess, startCrawlerProcess } from '../services/crawler/test/crawler-process.ts';
import { type LoginSite, MEMBERS_TEXT, startLoginSite } from '../services/crawler/test/login-site.ts';
import { createSchedulerService } from '../services/scheduler/src/service.ts';
import { ManualClock } from '../services/scheduler/test/scheduler-harness.ts';

// Logins kept between checks through the real loop (ADR 0016): the scheduler on its own clock
// dispatches checks.run, a real crawler process signs in with Chromium and publishes the
// snapshot with the sealed session, the scheduler keeps it and sends it with the next check.

const MINUTE = 60_000;
const namespace = `k${randomBytes(4).toString('hex')}`;
const secretKeys = generateSecretKey('k1');
const secrets = createSecretBox(secretKeys);
const logger = createLogger({ service: 'kept-login-test', level: 'silent' });
const clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
let database: FreshDatabase;
let db: Db;
let bus: EventBus;
let shutdown: Shutdown;
let login: LoginSite;
let crawler: CrawlerProcess;
let blobFolder: string;
const snapshots: checksEventsV1.SnapshotCaptured[] = [];

beforeAll(async () => {
  database = await createFreshDatabase();
  db = openPostgres(database.url);
  login = await startLoginSite();
  blobFolder = await mkdtemp(join(tmpdir(), 'kept-login-'));
  bus = namespacedBus(await createJetStreamBus({ servers: testNatsUrl() }), namespace);
  await bus.declareStreams([
    streams.targets,
    streams.accounts,
    streams.checks,
    streams.checkResults,
    streams.snapshots,
  ]);
  await bus.consume(
    {
      stream: snapshotCaptured.stream,
      durable: 'test-snapshots',
      filterSubject: snapshotCaptured.subject,
      ackWaitMs: 10_000,
      maxDeliver: 3,
    },
    async (message) => {
      snapshots.push(snapshotCaptured.decode(message.data));
    },
  );
  shutdown = createShutdown({ logger, timeoutMs: 10_000 });
  await runService(createSchedulerService({ db, bus, logger, clock, tickMs: 50 }), {
    db,
    bus,
    logger,
    shutdown,
    grpc: { host: '127.0.0.1', port: 0 },
  });
  crawler = await startCrawlerProcess({
    DATABASE_URL: database.url,
    NATS_URL: testNatsUrl(),
    BUS_NAMESPACE: namespace,
    BLOB_URL: `file:${blobFolder}`,
    SECRET_KEYS: secretKeys,
    CRAWLER_ALLOW: login.site.authority,
    LOG_LEVEL: 'warn',
  });
}, 120_000);

afterAll(async () => {
  if (crawler && crawler.child.exitCode === null) {
    crawler.child.kill('SIGTERM');
    await crawler.exited;
  }
  await shutdown?.run('test finished');
  await bus?.close();
  await db?.close();
  await login?.site.close();
  await database?.drop();
  if (blobFolder) await rm(blobFolder, { recursive: true, force: true });
});

/** The site as the target service sends it: a browser check behind a login, its password sealed. */
async function registerSite(targetId: string, userId: string) {
  const typed = (selector: string) => ({
    selector,
    selectorType: 'css',
    frameSelector: '',
    frameSelectorType: '',
  });
  const check = checksEventsV1.RunCheck.fromPartial({
    targetId,
    userId,
    url: `${login.site.origin}/members`,
    fetchMode: 'browser',
    userAgentKind: 'chrome',
    screenshot: 'none',
    login: {
      verifyKind: 'replay',
      actions: [
        { type: 'goto_url', value: `${login.site.origin}/login` },
        { type: 'enter_text', locator: typed('#user'), value: 'sato' },
        {
          type: 'enter_text',
          locator: typed('#pass'),
          sealedValue: secrets.seal('s3cret!', sealingContext.loginAction(targetId, 2)),
        },
        { type: 'click', locator: typed('#submit') },
      ],
    },
    areas: [{ areaId: 'secret', locator: typed('#secret') }],
  });
  const eventId = `targets.registered:${targetId}:1`;
  await bus.publish(
    targetRegistered.subject,
    targetRegistered.encode({
      eventId,
      targetId,
      userId,
      version: 2,
      revision: 1,
      intervalMinutes: 1,
      paused: false,
      pausedReason: '',
      check,
      // Saved before the scheduler's clock reaches its first check.
      occurredAt: new Date(clock.now().getTime() - MINUTE),
    }),
    { msgId: eventId },
  );
}

async function until(condition: () => Promise<boolean> | boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${crawler.lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Moves the scheduler's clock to the site's next due time and waits for that check's snapshot, kept. */
async function nextCheck(targetId: string): Promise<checksEventsV1.SnapshotCaptured> {
  const before = snapshots.length;
  clock.advance(MINUTE);
  await until(() => snapshots.length > before, 'the next snapshot');
  const snapshot = snapshots[snapshots.length - 1] as checksEventsV1.SnapshotCaptured;
  expect(snapshot.error).toBeUndefined();
  expect(snapshot.areas[0]?.text).toBe(MEMBERS_TEXT);
  // The next check is dispatched only once this one's session is kept, as between real minutes.
  await until(async () => {
    const { rows } = await db.query<{ due: Date }>(
      'SELECT check_due_at AS due FROM scheduler.kept_check_state WHERE target_id = $1',
      [targetId],
    );
    return rows[0]?.due.getTime() === snapshot.dueAt?.getTime();
  }, 'the session kept');
  return snapshot;
}

it('ten checks of a site behind a login, through scheduler and crawler, log in once; a lapsed session is replayed once', async () => {
  const targetId = randomUUID();
  await registerSite(targetId, `user-${randomUUID()}`);
  await until(async () => {
    const { rows } = await db.query('SELECT 1 FROM scheduler.schedules WHERE target_id = $1', [targetId]);
    return rows.length === 1;
  }, 'the schedule');

  for (let check = 0; check < 10; check++) {
    await nextCheck(targetId);
    const { rows } = await db.query<{ sealed: string }>(
      'SELECT sealed_session_state AS sealed FROM scheduler.kept_check_state WHERE target_id = $1',
      [targetId],
    );
    const sealed = rows[0]?.sealed ?? '';
    expect(sealed).not.toBe('');
    // Sealed for this site only; the scheduler stored and sent it as it came.
    expect(secrets.open(sealed, sealingContext.session(targetId))).toContain('"sid"');
  }
  expect(login.logins()).toBe(1);

  login.expireSessions();
  await nextCheck(targetId);
  expect(login.logins()).toBe(2);
  await nextCheck(targetId);
  await nextCheck(targetId);
  expect(login.logins()).toBe(2);
}, 300_000);
