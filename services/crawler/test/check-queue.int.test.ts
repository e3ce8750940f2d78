import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { checksEventsV1 } from '@mimamori/contracts';
import { runCheck, snapshotCaptured, streams } from '@mimamori/events';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { createFreshDatabase, type FreshDatabase, testNatsUrl } from '@mimamori/test-fixtures';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sealingContext } from '../src/domain/open-check-job.ts';
import { type CrawlerProcess, startCrawlerProcess } from './crawler-process.ts';
import { type FixtureSite, JAPANESE_NEWS, startFixtureSite } from './fixture-site.ts';

// Real NATS JetStream, real crawler processes, a fixture page that holds the first request.
const namespace = `t${randomBytes(4).toString('hex')}`;
const secretKeys = generateSecretKey('k1');
const secrets = createSecretBox(secretKeys);
let database: FreshDatabase;
let site: FixtureSite;
let bus: EventBus;
let blobFolder: string;
const crawlers: CrawlerProcess[] = [];
const snapshots: checksEventsV1.SnapshotCaptured[] = [];

beforeAll(async () => {
  database = await createFreshDatabase();
  site = await startFixtureSite();
  blobFolder = await mkdtemp(join(tmpdir(), 'crawler-queue-'));
  bus = namespacedBus(await createJetStreamBus({ servers: testNatsUrl() }), namespace);
  await bus.declareStreams([streams.checks, streams.snapshots]);
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
});

afterAll(async () => {
  for (const crawler of crawlers)
    if (crawler.child.exitCode === null && !crawler.child.signalCode) crawler.child.kill('SIGKILL');
  await bus?.close();
  await site?.close();
  await database?.drop();
  if (blobFolder) await rm(blobFolder, { recursive: true, force: true });
});

const crawlerEnv = () => ({
  DATABASE_URL: database.url,
  NATS_URL: testNatsUrl(),
  BUS_NAMESPACE: namespace,
  BLOB_URL: `file:${blobFolder}`,
  SECRET_KEYS: secretKeys,
  CRAWLER_ALLOW: site.authority,
  CRAWLER_ACK_WAIT_MS: '2000',
  // The captured check is told at debug; the secrets are looked for in every line there is.
  LOG_LEVEL: 'debug',
});

function jobFor(targetId: string, path: string) {
  return {
    checkId: `${targetId}:2026-11-23T10:00:00.000Z`,
    targetId,
    userId: 'user-1',
    dueAt: new Date('2026-11-23T10:00:00.000Z'),
    url: `${site.origin}${path}`,
    fetchMode: 'http',
    userAgentKind: 'chrome',
    areas: [
      {
        areaId: 'news',
        locator: { selector: '#news .item', selectorType: 'css', frameSelector: '', frameSelectorType: '' },
      },
    ],
    screenshot: 'none',
  };
}

const logLines = (crawler: CrawlerProcess) =>
  crawler.lines.map((line) => JSON.parse(line) as Record<string, unknown>);

it('redelivers a check whose crawler was killed mid-page to another crawler, which publishes its snapshot once', async () => {
  const first = await startCrawlerProcess(crawlerEnv());
  crawlers.push(first);

  const checkId = `target-1:2026-11-23T10:00:00.000Z`;
  const job = checksEventsV1.RunCheck.fromPartial({
    ...jobFor('target-1', '/hold-first'),
    checkId,
    sealedCookies: secrets.seal('sid=secret-cookie-value', sealingContext.cookies('target-1')),
  });
  await bus.publish(runCheck.subject, runCheck.encode(job), { msgId: checkId });

  // The first crawler is now waiting for the held page: kill it without warning.
  while (!site.requests.some(({ path }) => path === '/hold-first'))
    await new Promise((resolve) => setTimeout(resolve, 50));
  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

  const second = await startCrawlerProcess(crawlerEnv());
  crawlers.push(second);
  while (snapshots.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  second.child.kill('SIGTERM');
  expect(await second.exited).toEqual({ code: 0, signal: null });

  expect(snapshots).toHaveLength(1);
  expect(snapshots[0]).toMatchObject({
    checkId,
    targetId: 'target-1',
    finalUrl: `${site.origin}/hold-first`,
    httpStatus: 200,
    areas: [{ areaId: 'news', found: true, text: JAPANESE_NEWS }],
  });
  expect(snapshots[0]?.error).toBeUndefined();
  const holds = site.requests.filter(({ path }) => path === '/hold-first');
  expect(holds.map(({ headers }) => headers.cookie)).toEqual([
    'sid=secret-cookie-value',
    'sid=secret-cookie-value',
  ]);

  // The two requests for the held page above prove the redelivery; the delivery count JetStream
  // reports for it varies with when the killed connection's pull request expired, so only the
  // check is asserted here.
  const captured = second.lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.msg === 'snapshot captured');
  expect(captured).toMatchObject({ checkId });
  expect([...first.lines, ...second.lines].join('\n')).not.toContain('secret-cookie-value');

  // Exactly one snapshot in the stream, and the work queue emptied by the ack.
  const nats = await connect({ servers: testNatsUrl() });
  try {
    const manager = await jetstreamManager(nats);
    expect((await manager.streams.info(`${namespace}_${streams.snapshots.name}`)).state.messages).toBe(1);
    expect((await manager.streams.info(`${namespace}_${streams.checks.name}`)).state.messages).toBe(0);
  } finally {
    await nats.close();
  }
});

it('keeps a check that outlasts the ack wait with its crawler through heartbeats', async () => {
  const crawler = await startCrawlerProcess(crawlerEnv());
  crawlers.push(crawler);
  const job = checksEventsV1.RunCheck.fromPartial(jobFor('target-2', '/slow-answer'));
  await bus.publish(runCheck.subject, runCheck.encode(job), { msgId: job.checkId });
  while (!snapshots.some(({ checkId }) => checkId === job.checkId))
    await new Promise((resolve) => setTimeout(resolve, 50));
  crawler.child.kill('SIGTERM');
  expect(await crawler.exited).toEqual({ code: 0, signal: null });

  // The page answers after 5 s against a 2 s ack wait: without heartbeats the check would have
  // been redelivered and the page requested again. The check is captured once; its delivery
  // count is not asserted, since on a busy machine a heartbeat can come late and the server hand
  // the message over again, which the crawler holding it settles without running it twice.
  expect(site.requests.filter(({ path }) => path === '/slow-answer')).toHaveLength(1);
  expect(logLines(crawler).filter((line) => line.msg === 'snapshot captured')).toEqual([
    expect.objectContaining({ checkId: job.checkId }),
  ]);
  expect(snapshots.filter(({ checkId }) => checkId === job.checkId)).toHaveLength(1);
});
