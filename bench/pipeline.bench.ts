// From a page change to the e-mail accepted by the SMTP server, over ≥200 sites: account, target,
// crawler (HTTP mode), diff and notifier in this process on the service host, as the cluster runs
// them, over real PostgreSQL (a fresh database), JetStream (a namespace of its own) and a real
// SMTP server on loopback. Sites are registered through the gateway's API; checks are dispatched
// by publishing the `checks.run` jobs from each site's targets.registered template, as the
// scheduler does at a due time, rather than waiting for the scheduler's phases. A first round
// records each site's registration version; then every page changes and a second round is timed:
// latency = the SMTP server accepting the site's update mail minus its check's publish. The
// baseline in the same run is the crawler's share: publish to snapshots.captured. A third round,
// with no page changed (most checks' lot), and the second are read for what one check writes to
// PostgreSQL, the blob store and JetStream (bench/pipeline-costs.ts).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { createFileBlobStore } from '@mimamori/blob-store';
import { createJetStreamBus, namespacedBus } from '@mimamori/bus';
import { accountV1, type checksEventsV1, targetV1 } from '@mimamori/contracts';
import { createCrawlerService } from '@mimamori/crawler';
import { openPostgres } from '@mimamori/db';
import { createDiffService } from '@mimamori/diff';
import { checkCompleted, runCheck, snapshotCaptured, streams, targetRegistered } from '@mimamori/events';
import { createGateway } from '@mimamori/gateway';
import { openMailTransport } from '@mimamori/mail';
import { accountProfileClient, createNotifierService } from '@mimamori/notifier';
import { createGrpcClient, createLogger, createShutdown } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { type RunningService, runService } from '@mimamori/service-host';
import { createTargetService } from '@mimamori/target';
// The fixtures' index loads vitest, which cannot run outside a test; these files are plain.
import { createFreshDatabase } from '../packages/test-fixtures/src/fresh-database.ts';
import { testDatabaseUrl, testNatsUrl } from '../packages/test-fixtures/src/server-urls.ts';
import { startSmtpServer } from '../packages/test-fixtures/src/smtp-server-fixture.ts';
import { pageText, siteLabel, startPipelinePageServer } from './fixtures/pipeline-page-server.ts';
import { countingBus, perCheck, takeReading } from './pipeline-costs.ts';
import { registerSites } from './pipeline-targets.ts';
import { percentile, report } from './report.ts';

const SITES = Number(process.env.BENCH_SITES ?? 220);
const PER_USER = 50; // the Advanced plan's ten-minute slots
const ROUND_TIMEOUT_MS = 90_000;

const logger = createLogger({ service: 'bench', level: process.env.BENCH_LOG === '1' ? 'warn' : 'silent' });
const shutdown = createShutdown({ logger, timeoutMs: 10_000 });
const namespace = `b${randomBytes(4).toString('hex')}`;
const database = await createFreshDatabase(process.env.DATABASE_URL ?? testDatabaseUrl());
const db = openPostgres(database.url, { max: 20 });
const natsUrl = process.env.NATS_URL ?? testNatsUrl();
const rawBus = await createJetStreamBus({ servers: natsUrl });
const bus = countingBus(namespacedBus(rawBus, namespace));
const smtp = await startSmtpServer();
const pages = await startPipelinePageServer();
const blobDir = await mkdtemp(join(tmpdir(), 'pipeline-bench-blobs-'));

try {
  const secretBox = createSecretBox(generateSecretKey('bench'));
  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const services: Record<string, RunningService> = {};
  const accountClient = () =>
    createGrpcClient(accountV1.AccountServiceClient, services.account?.grpcAddress ?? '');
  const targetClient = () =>
    createGrpcClient(targetV1.TargetServiceClient, services.target?.grpcAddress ?? '');
  const modules = [
    createAccountService({ db, logger, secretBox }),
    createTargetService({ db, logger, secretBox }),
    createCrawlerService({
      bus,
      logger,
      blobs: await createFileBlobStore(blobDir),
      allow: [new URL(pages.origin).host],
    }),
    createDiffService({ db, bus, logger, blobs: await createFileBlobStore(blobDir) }),
    createNotifierService({
      db,
      logger,
      mail: openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>'),
      secretBox,
      publicUrl: () => 'https://mimamori.example/',
      updates: { profiles: accountProfileClient(accountClient), blobs: await createFileBlobStore(blobDir) },
    }),
  ];
  for (const module of modules) services[module.name] = await runService(module, host);
  const account = accountClient();
  const target = targetClient();
  shutdown.register('clients', async () => {
    account.close();
    target.close();
  });
  const gateway = await createGateway({ logger, account, target, isShuttingDown: shutdown.isShuttingDown });
  shutdown.register('gateway', () => gateway.close());

  const registering = performance.now();
  await registerSites(
    gateway,
    async (email) => {
      await db.query('UPDATE account.users SET email_verified_at = now() WHERE lower(email) = lower($1)', [
        email,
      ]);
    },
    pages.origin,
    SITES,
    PER_USER,
  );
  const registerSeconds = (performance.now() - registering) / 1_000;
  const templates = await checkTemplates();
  if (templates.size !== SITES) throw new Error(`${templates.size} of ${SITES} sites have a check template`);

  // Observers on the pipeline's own streams: the crawler's snapshot and the diff's check result.
  const snapshotAt = new Map<string, number>();
  const completedAt = new Map<string, number>();
  const observers = [
    await bus.consume(
      {
        stream: streams.snapshots.name,
        durable: 'bench_snapshots',
        filterSubject: snapshotCaptured.subject,
        ackWaitMs: 30_000,
        maxDeliver: 1,
      },
      async (message) => {
        snapshotAt.set(snapshotCaptured.decode(message.data).checkId, performance.now());
      },
    ),
    await bus.consume(
      {
        stream: streams.checkResults.name,
        durable: 'bench_results',
        filterSubject: checkCompleted.subject,
        ackWaitMs: 30_000,
        maxDeliver: 1,
      },
      async (message) => {
        completedAt.set(checkCompleted.decode(message.data).checkId, performance.now());
      },
    ),
  ];
  shutdown.register('observers', async () => {
    await Promise.all(observers.map((observer) => observer.stop()));
  });

  // Round 1: each site's first check records its registration version (no update, no mail).
  const first = await dispatchAll(templates, 'first');
  await until(() => [...first.keys()].every((checkId) => completedAt.has(checkId)), 'first checks');
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  // Only the users' sign-up confirmations (one per user) are expected here: the first round finds no update.
  const mailsBefore = smtp.messages.length;
  const beforeChange = await takeReading(db, blobDir, bus);

  // Round 2: every page changes, then every site is checked; its update mail is awaited.
  pages.setVersion(2);
  const mailAt = new Map<number, number>();
  const watching = watchMails(mailsBefore, mailAt);
  const roundStart = performance.now();
  const second = await dispatchAll(templates, 'changed');
  await watching;
  const roundSeconds = (Math.max(...mailAt.values()) - roundStart) / 1_000;
  await until(() => [...second.keys()].every((checkId) => completedAt.has(checkId)), 'changed checks');
  const afterChange = await takeReading(db, blobDir, bus);

  // Round 3: nothing changed since round 2, as for most checks.
  const third = await dispatchAll(templates, 'steady');
  await until(() => [...third.keys()].every((checkId) => completedAt.has(checkId)), 'unchanged checks');
  const afterSteady = await takeReading(db, blobDir, bus);

  const latencies: number[] = [];
  const crawlerShares: number[] = [];
  for (const [checkId, { n, publishedAt }] of second) {
    const mailed = mailAt.get(n);
    if (mailed === undefined) throw new Error(`no update mail for ${siteLabel(n)}`);
    latencies.push(mailed - publishedAt);
    const captured = snapshotAt.get(checkId);
    if (captured !== undefined) crawlerShares.push(captured - publishedAt);
  }
  const round = (value: number) => Math.round(value * 10) / 10;
  const figures = {
    p50: round(percentile(latencies, 0.5)),
    p99: round(percentile(latencies, 0.99)),
    max: round(Math.max(...latencies)),
    crawlerP50: round(percentile(crawlerShares, 0.5)),
    crawlerP99: round(percentile(crawlerShares, 0.99)),
  };
  report(
    `pipeline: ${SITES} sites changed at once, check publish → update mail accepted by SMTP (checks dispatched by the bench from the scheduler's templates, not on the scheduler's phases)`,
    [
      {
        stage: 'check start → e-mail accepted (crawler + diff + notifier)',
        'p50 (ms)': figures.p50,
        'p99 (ms)': figures.p99,
        'max (ms)': figures.max,
      },
      {
        stage: 'baseline: check start → snapshots.captured (crawler only)',
        'p50 (ms)': figures.crawlerP50,
        'p99 (ms)': figures.crawlerP99,
        'max (ms)': round(Math.max(...crawlerShares)),
      },
    ],
    {
      sites: SITES,
      mails: mailAt.size,
      mails_before_change: mailsBefore,
      dispatch: 'bench publishes checks.run from the targets.registered templates (scheduler phases skipped)',
      latency_p50_ms: figures.p50,
      latency_p99_ms: figures.p99,
      latency_max_ms: figures.max,
      throughput_mails_per_s: round(SITES / roundSeconds),
      baseline_crawler_p50_ms: figures.crawlerP50,
      baseline_crawler_p99_ms: figures.crawlerP99,
      register_seconds: round(registerSeconds),
      per_check_unchanged: perCheck(afterChange, afterSteady, third.size),
      per_check_update: perCheck(beforeChange, afterChange, second.size),
    },
  );
} finally {
  await shutdown.run('bench finished');
  for (const { name } of Object.values(streams)) {
    if (await rawBus.hasStream(`${namespace}_${name}`)) await rawBus.deleteStream(`${namespace}_${name}`);
  }
  await bus.close();
  await rawBus.close();
  await db.close();
  await database.drop();
  await smtp.close();
  await pages.close();
  await rm(blobDir, { recursive: true, force: true });
}

/** Each site's `checks.run` template from its targets.registered event in the target outbox, by site number. */
async function checkTemplates(): Promise<Map<number, checksEventsV1.RunCheck>> {
  const { rows } = await db.query<{ payload: Uint8Array }>(
    'SELECT payload FROM target.outbox WHERE subject = $1 ORDER BY seq',
    [targetRegistered.subject],
  );
  const templates = new Map<number, checksEventsV1.RunCheck>();
  for (const { payload } of rows) {
    const event = targetRegistered.decode(payload);
    const n = Number(/\/p\/(\d+)$/.exec(event.check?.url ?? '')?.[1]);
    if (event.check && Number.isInteger(n)) templates.set(n, event.check);
  }
  return templates;
}

/** Publishes one check per site, as the scheduler would at a due time; the publish is the check's start. */
async function dispatchAll(templates: Map<number, checksEventsV1.RunCheck>, round: string) {
  const started = new Map<string, { n: number; publishedAt: number }>();
  const dueAt = new Date();
  await Promise.all(
    [...templates].map(async ([n, template]) => {
      const checkId = `${template.targetId}:${round}:${dueAt.toISOString()}`;
      const publishedAt = performance.now();
      started.set(checkId, { n, publishedAt });
      await bus.publish(runCheck.subject, runCheck.encode({ ...template, checkId, dueAt }), {
        msgId: checkId,
      });
    }),
  );
  return started;
}

/** Stamps each mail after the first `from` with the time the SMTP server accepted it, by site. */
async function watchMails(from: number, mailAt: Map<number, number>): Promise<void> {
  let seen = from;
  while (mailAt.size < SITES) {
    await smtp.waitForMessages(seen + 1, ROUND_TIMEOUT_MS);
    const now = performance.now();
    for (const mail of smtp.messages.slice(seen)) {
      const n = Number(/bench-(\d{4})/.exec(`${mail.subject ?? ''} ${mail.text ?? ''}`)?.[1]);
      // Only the update mail that shows the changed text counts.
      if (Number.isInteger(n) && !mailAt.has(n) && mail.text?.includes(pageText(n, 2))) mailAt.set(n, now);
    }
    seen = smtp.messages.length;
  }
}

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + ROUND_TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
