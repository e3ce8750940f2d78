// Sites held at a 1-minute interval in cluster mode: every service as its own Node process
// (scripts/cluster/launch-cluster.ts) on real PostgreSQL (a fresh database), JetStream (a
// namespace of its own) and an SMTP server on loopback, checking loopback fixture pages: 80 % in
// HTTP mode, 20 % in the browser (system Chromium), a rotating tenth of each mode's pages changing
// each minute so updates go through diff and notifier to the SMTP server. Users sign up through the
// gateway on a trial of the Advanced plan (50 one-minute slots each), verify by the mailed link
// and register 50 sites each, as the wizard would; the scheduler dispatches on its own phases.
//
// Before the first window, a quiet one (BENCH_QUIET_SECONDS, no page changing) measures what an
// unchanged check writes to PostgreSQL with the write meter (pg_rows_per_unchanged_check,
// pg_bytes_per_unchanged_check; ADR 0032).
//
// One run (BENCH_SITES, default 10,000; BENCH_MINUTES, default 10) or a stepping run (BENCH_STEP=500,1000,2000 with
// BENCH_STEP_MINUTES each): counts go up on the same cluster, sites added to reach each count,
// until a count is not held by the rule in HELD; the report says which rule broke and the busiest
// processes. Each measured window starts once every site has had its first check (which records
// its registration version).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createJetStreamBus } from '@mimamori/bus';
import { openPostgres } from '@mimamori/db';
import { streams } from '@mimamori/events';
import { generateSecretKey } from '@mimamori/secret-box';
// The fixtures' index loads vitest, which cannot run outside a test; these files are plain.
import { createFreshDatabase } from '../packages/test-fixtures/src/fresh-database.ts';
import { createHttpVisitor } from '../packages/test-fixtures/src/http-visitor.ts';
import { testDatabaseUrl, testNatsUrl } from '../packages/test-fixtures/src/server-urls.ts';
import { startSmtpServer } from '../packages/test-fixtures/src/smtp-server-fixture.ts';
import { installWriteMeter, serviceSchemas } from '../packages/test-fixtures/src/write-meter.ts';
import { type Cluster, launchCluster } from '../scripts/cluster/launch-cluster.ts';
import { startPipelinePageServer } from './fixtures/pipeline-page-server.ts';
import { gaugeValue, histogramBuckets, histogramQuantile, rotatingChanges } from './load-figures.ts';
import { cpuPercent, type ProcessUsage, sampleProcesses } from './load-processes.ts';
import { perCheck, type Reading, takeReading } from './pipeline-costs.ts';
import { type ApiUser, registerSite, signUpUser } from './pipeline-targets.ts';
import { percentile, report } from './report.ts';

const MINUTE = 60_000;
const SITES = Number(process.env.BENCH_SITES ?? 10_000);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const STEPS = process.env.BENCH_STEP?.split(',').map(Number);
const STEP_MINUTES = Number(process.env.BENCH_STEP_MINUTES ?? 2);
const REGISTER_CONCURRENCY = Number(process.env.BENCH_REGISTER_CONCURRENCY ?? 4);
/**
 * The quiet window before the first measured one, in which no page changes: every check in it is
 * an unchanged one, and what they write is read by the write meter (ADR 0032). One interval, so
 * each site is checked about once.
 */
const QUIET_SECONDS = Number(process.env.BENCH_QUIET_SECONDS ?? 60);
/** The Advanced plan: 50 one-minute slots per user. */
const ADVANCED_PLAN = 11;
const PER_USER = 50;
/** One site in five is checked in the browser: the last of each five. */
const MODE_CYCLE = 5;
const isBrowser = (n: number) => n % MODE_CYCLE === MODE_CYCLE - 1;
/** A count is held when every one of these is. */
const HELD = {
  dispatchLagP99Ms: 10_000,
  completedShare: 0.95,
  errorRate: 0.01,
  // A check finishes before the site's next one is due.
  dueToCompletedP99Ms: MINUTE,
};
/** How long a window's late checks may take to come in before the window is read. */
const DRAIN_MS = 60_000;

if (
  [SITES, MINUTES, STEP_MINUTES, QUIET_SECONDS, ...(STEPS ?? [])].some(
    (value) => !Number.isInteger(value) || value < 1,
  )
) {
  throw new Error(
    'BENCH_SITES, BENCH_MINUTES, BENCH_STEP (comma-separated), BENCH_STEP_MINUTES and BENCH_QUIET_SECONDS are whole numbers ≥ 1',
  );
}

const machine = {
  nproc: availableParallelism(),
  cpu: cpus()[0]?.model ?? 'unknown',
  memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  load_at_start: loadavg().map((value) => Math.round(value * 100) / 100),
  crawler_concurrency: Number(process.env.CRAWLER_CONCURRENCY ?? 8),
};

// Everything started is stopped in reverse order, after a failure or Ctrl-C as well.
const cleanups: { what: string; run: () => Promise<unknown> }[] = [];
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const { what, run } of cleanups.reverse()) {
      await run().catch((error: Error) => console.error(`cleaning up ${what}: ${error.message}`));
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the cluster and removing what the bench made`);
    void cleanUp().then(() => process.exit(130));
  });
}

const namespace = `l${randomBytes(4).toString('hex')}`;
const database = await createFreshDatabase(process.env.DATABASE_URL ?? testDatabaseUrl());
cleanups.push({ what: 'database', run: () => database.drop() });
const db = openPostgres(database.url, { max: 4 });
cleanups.push({ what: 'database pool', run: () => db.close() });
const natsUrl = process.env.NATS_URL ?? testNatsUrl();
cleanups.push({
  what: 'JetStream streams',
  run: async () => {
    const bus = await createJetStreamBus({ servers: natsUrl });
    for (const { name } of Object.values(streams)) {
      if (await bus.hasStream(`${namespace}_${name}`)) await bus.deleteStream(`${namespace}_${name}`);
    }
    await bus.close();
  },
});
const smtp = await startSmtpServer();
cleanups.push({ what: 'SMTP server', run: () => smtp.close() });
const pages = await startPipelinePageServer();
cleanups.push({ what: 'page server', run: () => pages.close() });
const blobDir = await mkdtemp(join(tmpdir(), 'load-bench-blobs-'));
cleanups.push({ what: 'blob folder', run: () => rm(blobDir, { recursive: true, force: true }) });

/** Error-level log lines by service: a clue to what gave way when a count is not held. */
const errorLines = new Map<string, { count: number; last: string }>();
let cluster: Cluster;
try {
  cluster = await launchCluster({
    databaseUrl: database.url,
    natsUrl,
    smtpUrl: smtp.url,
    httpPort: 0,
    secretKeys: generateSecretKey('bench'),
    env: {
      BUS_NAMESPACE: namespace,
      CRAWLER_ALLOW: new URL(pages.origin).host,
      // On disk, so that the blob bytes per check can be read.
      BLOB_URL: `file:${blobDir}`,
    },
    onLine(service, line) {
      if (!/"level":(50|60)/.test(line)) return;
      const seen = errorLines.get(service) ?? { count: 0, last: '' };
      errorLines.set(service, { count: seen.count + 1, last: line.slice(0, 300) });
    },
  });
} catch (error) {
  await cleanUp();
  throw error;
}
cleanups.push({ what: 'cluster', run: () => cluster.stop() });

const roots = () =>
  new Map([...cluster.processes].flatMap(([name, child]) => (child.pid ? [[name, child.pid] as const] : [])));

// Mails as the SMTP server accepts them, stamped with the time (polled every 100 ms), and the
// verification links by address (a scan of every mail per sign-up would cost the bench's CPU at
// thousands of mails).
const mailAt: number[] = [];
const verificationTokens = new Map<string, string>();
const stamping = setInterval(() => {
  while (mailAt.length < smtp.messages.length) {
    const mail = smtp.messages[mailAt.length];
    mailAt.push(Date.now());
    const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    const address = /load\d+@example\.jp/.exec(JSON.stringify(mail?.to))?.[0];
    if (token && address) verificationTokens.set(address, token);
  }
}, 100);
cleanups.push({ what: 'mail stamps', run: async () => clearInterval(stamping) });

// The pages start changing when the first window starts.
let changeStart: number | undefined;
// A tenth of each mode's sites changes each minute, not only a tenth of all sites.
const { versionAt, changedAt } = rotatingChanges(() => changeStart, MODE_CYCLE);
pages.setVersion((n) => versionAt(n, Date.now()));
const users = new Map<number, ApiUser>();
const modeOf = new Map<string, 'http' | 'browser'>();
const siteOf = new Map<string, number>();
let registered = 0;

type Step = Awaited<ReturnType<typeof measure>>;
const steps: Step[] = [];
let stoppedBecause = '';
let unchanged: Awaited<ReturnType<typeof measureUnchanged>> | undefined;
try {
  for (const count of STEPS ?? [SITES]) {
    const adding = performance.now();
    await addSites(count);
    const registerSeconds = Math.round((performance.now() - adding) / 100) / 10;
    progress(`${count} sites registered in ${registerSeconds} s; waiting for each one's first check`);
    await firstChecks(count);
    unchanged ??= await measureUnchanged();
    const step = { ...(await measure(count, STEPS ? STEP_MINUTES : MINUTES)), registerSeconds };
    steps.push(step);
    progress(`${count} sites ${step.held ? 'held' : `not held: ${step.reason}`}`);
    if (!step.held) {
      stoppedBecause = step.reason;
      break;
    }
  }
  printReport();
} finally {
  await cleanUp();
}

/** A line on stderr while the bench runs (the report goes to stdout). */
function progress(line: string): void {
  console.error(`${new Date().toISOString().slice(11, 19)} ${line}`);
}

/** Registers sites until `count` exist, users working in parallel, each on its own 50. */
async function addSites(count: number): Promise<void> {
  const pending: number[] = [];
  for (let n = registered; n < count; n++) pending.push(n);
  const byUser = Map.groupBy(pending, (n) => Math.floor(n / PER_USER));
  const queue = [...byUser];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [index, sites] = next;
      let user = users.get(index);
      if (!user) {
        user = createHttpVisitor(cluster.url);
        await signUpUser(user, `load${index}@example.jp`, ADVANCED_PLAN, verifyByMail);
        users.set(index, user);
      }
      for (const n of sites) {
        const mode = isBrowser(n) ? 'browser' : 'http';
        const targetId = await registerSite(user, pages.origin, n, { intervalMinutes: 1, fetchMode: mode });
        modeOf.set(targetId, mode);
        siteOf.set(targetId, n);
      }
    }
  };
  await Promise.all(Array.from({ length: REGISTER_CONCURRENCY }, worker));
  registered = count;
}

/** Follows the link mailed to `email`, as the person signing up would. */
async function verifyByMail(email: string, user: ApiUser): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const token = verificationTokens.get(email);
    if (token) {
      const verified = await user.post('/api/verify', { token });
      if (verified.status !== 200)
        throw new Error(`verifying ${email} failed: ${JSON.stringify(verified.body)}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`no verification mail to ${email}`);
    await sleep(100);
  }
}

/** Waits until each of the first `count` sites has had a check (at most three intervals). */
async function firstChecks(count: number): Promise<void> {
  const deadline = Date.now() + 3 * MINUTE;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(DISTINCT target_id)::int AS n FROM diff.check_results',
    );
    if ((rows[0]?.n ?? 0) >= count) return;
    if (Date.now() > deadline) {
      console.error(
        `only ${rows[0]?.n ?? 0} of ${count} sites had a first check after 3 minutes; measuring anyway`,
      );
      return;
    }
    await sleep(2_000);
  }
}

/**
 * What unchanged checks write (ADR 0032): for QUIET_SECONDS before any page changes, every row
 * version the services write is counted by the write meter's triggers, and divided by the checks
 * the diff service recorded in the same time. The meter is removed before the measured window.
 */
async function measureUnchanged() {
  progress(`measuring what unchanged checks write for ${QUIET_SECONDS} s`);
  const meter = await installWriteMeter(db, await serviceSchemas(db));
  try {
    const checksSql = 'SELECT count(*)::int FROM diff.check_results';
    await meter.reset();
    const { rows } = await db.query<{ n: number }>(`SELECT (${checksSql}) AS n`);
    const before = rows[0]?.n ?? 0;
    await sleep(QUIET_SECONDS * 1_000);
    const reading = await meter.read<number>(checksSql);
    const checks = (reading.extra ?? before) - before;
    const each = (value: number) => (checks > 0 ? round(value / checks, 2) : Number.NaN);
    return {
      unchanged_checks: checks,
      pg_rows_per_unchanged_check: each(reading.rows),
      pg_bytes_per_unchanged_check: Math.round(each(reading.bytes)),
      by_table: Object.fromEntries(
        Object.entries(reading.byTable).map(([table, { rows, bytes }]) => [
          table,
          { rows: each(rows), bytes: Math.round(each(bytes)) },
        ]),
      ),
    };
  } finally {
    await meter.remove();
  }
}

/** A service's /metrics text now. */
async function metricsOf(service: 'scheduler' | 'crawler'): Promise<string> {
  return (await fetch(new URL('metrics', cluster.opsUrls.get(service)))).text();
}

/** The scheduler's dispatch lag and the crawler's check durations by mode, as histograms now. */
async function histograms() {
  const crawler = await metricsOf('crawler');
  return {
    lag: histogramBuckets(await metricsOf('scheduler'), 'mimamori_dispatch_lag_seconds'),
    http: histogramBuckets(crawler, 'mimamori_check_duration_seconds', 'mode="http"'),
    browser: histogramBuckets(crawler, 'mimamori_check_duration_seconds', 'mode="browser"'),
  };
}

/** One measured window of `minutes` at `sites` sites. */
async function measure(sites: number, minutes: number) {
  const before: Reading = await takeReading(db, blobDir, { published: () => ({}) });
  const windowStart = Date.now();
  progress(`measuring ${sites} sites for ${minutes} min`);
  changeStart ??= windowStart;
  const histogramsBefore = await histograms();
  const usageStart = sampleProcesses(roots());
  const benchCpuStart = process.cpuUsage();
  let usageMinute2: Record<string, ProcessUsage> | undefined;
  let pgConnections = 0;
  // What the crawler reports: checks waiting in the work queue, browser pages open.
  let queued = 0;
  let browserPages = 0;
  const windowEnd = windowStart + minutes * MINUTE;
  while (Date.now() < windowEnd) {
    await sleep(Math.min(5_000, windowEnd - Date.now()));
    if (!usageMinute2 && Date.now() >= windowStart + 2 * MINUTE) usageMinute2 = sampleProcesses(roots());
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()',
    );
    pgConnections = Math.max(pgConnections, rows[0]?.n ?? 0);
    const crawler = await metricsOf('crawler');
    queued = Math.max(queued, gaugeValue(crawler, 'mimamori_checks_pending') || 0);
    browserPages = Math.max(browserPages, gaugeValue(crawler, 'mimamori_browser_pool_pages_in_use') || 0);
  }
  const usageEnd = sampleProcesses(roots());
  const seconds = (Date.now() - windowStart) / 1_000;
  const cpu = cpuPercent(usageStart, usageEnd, seconds);
  const benchCpu = process.cpuUsage(benchCpuStart);
  const histogramsAfter = await histograms();
  const due = sites * minutes;
  // The bench's own share too: it serves the pages and takes the mails.
  const cpuShares: Record<string, { total: number; children: number }> = {
    ...cpu,
    bench: { total: Math.round((benchCpu.user + benchCpu.system) / 1e4 / seconds), children: 0 },
  };

  // Late checks of the window come in (or not) before it is read.
  const drainUntil = Date.now() + DRAIN_MS;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM diff.check_results WHERE due_at >= $1 AND due_at < $2',
      [new Date(windowStart), new Date(windowEnd)],
    );
    if ((rows[0]?.n ?? 0) >= due || Date.now() > drainUntil) break;
    await sleep(2_000);
  }
  const after: Reading = await takeReading(db, blobDir, { published: () => ({}) });
  // What the readings saw is every check completed between them, the drain's as well.
  const { rows: betweenReadings } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM diff.check_results WHERE completed_at >= $1 AND completed_at < now()',
    [new Date(windowStart)],
  );

  const { rows: checks } = await db.query<{
    target_id: string;
    due_at: Date;
    completed_at: Date;
    outcome: string;
    error_code: string;
  }>(
    `SELECT target_id, due_at, completed_at, outcome, error_code FROM diff.check_results
      WHERE due_at >= $1 AND due_at < $2`,
    [new Date(windowStart), new Date(windowEnd)],
  );
  const { rows: doneInWindow } = await db.query<{ target_id: string; n: number }>(
    `SELECT target_id, count(*)::int AS n FROM diff.check_results
      WHERE completed_at >= $1 AND completed_at < $2 GROUP BY target_id`,
    [new Date(windowStart), new Date(windowEnd)],
  );
  const { rows: updates } = await db.query<{ target_id: string; due_at: Date }>(
    `SELECT u.target_id, r.due_at FROM diff.updates u JOIN diff.check_results r USING (check_id)
      WHERE r.due_at IS NOT NULL ORDER BY r.due_at`,
  );

  const completedByMode = { http: 0, browser: 0 };
  for (const { target_id, n } of doneInWindow) completedByMode[modeOf.get(target_id) ?? 'http'] += n;
  const errors = checks.filter((check) => check.outcome === 'error');
  const errorCodes: Record<string, number> = {};
  for (const { error_code } of errors) errorCodes[error_code] = (errorCodes[error_code] ?? 0) + 1;
  const dueToCompleted = checks.map((check) => check.completed_at.getTime() - check.due_at.getTime());

  // Changes made in the window that a check due in it could find (a change in its last minute
  // may fall after the site's last check of the window), each with its update mail: from the
  // change, and from the due time of the check that found it.
  const checksOf = Map.groupBy(checks, (check) => check.target_id);
  const expected = new Set<string>();
  for (const [targetId, n] of siteOf) {
    for (let version = 2; changedAt(n, version) < windowEnd; version++) {
      const changed = changedAt(n, version);
      const found = (checksOf.get(targetId) ?? []).some(
        (check) => check.due_at.getTime() >= changed && check.due_at.getTime() < windowEnd,
      );
      if (changed >= windowStart && found) expected.add(`${n}:${version}`);
    }
  }
  const updateDues = Map.groupBy(updates, (update) => update.target_id);
  const targetOfSite = new Map([...siteOf].map(([targetId, n]) => [n, targetId]));
  const mailed = new Set<string>();
  const changeToMail: number[] = [];
  const dueToMail: number[] = [];
  for (const [index, mail] of smtp.messages.entries()) {
    const n = Number(/ \| bench-(\d+)/.exec(mail.subject ?? '')?.[1]);
    const prices = [...(mail.text ?? '').matchAll(/bench-\d+ price (\d+) yen/g)].map((match) =>
      Number(match[1]),
    );
    const at = mailAt[index];
    if (!Number.isInteger(n) || prices.length === 0 || at === undefined) continue;
    const version = Math.max(...prices) / 1_000;
    const key = `${n}:${version}`;
    if (!expected.has(key) || mailed.has(key)) continue;
    mailed.add(key);
    changeToMail.push(at - changedAt(n, version));
    const found = (updateDues.get(targetOfSite.get(n) ?? '') ?? [])
      .filter((update) => update.due_at.getTime() <= at)
      .at(-1);
    if (found) dueToMail.push(at - found.due_at.getTime());
  }

  const figures = {
    sites,
    minutes,
    checks_due: due,
    checks_completed: checks.length,
    completed_share: round(checks.length / due, 3),
    http_checks_per_s: round(completedByMode.http / seconds, 2),
    browser_checks_per_s: round(completedByMode.browser / seconds, 2),
    dispatch_lag_p50_ms: histogramQuantile(histogramsBefore.lag, histogramsAfter.lag, 0.5),
    dispatch_lag_p99_ms: histogramQuantile(histogramsBefore.lag, histogramsAfter.lag, 0.99),
    due_to_completed_p50_ms: percentile(dueToCompleted, 0.5),
    due_to_completed_p99_ms: percentile(dueToCompleted, 0.99),
    changes: expected.size,
    update_mails: changeToMail.length,
    change_to_mail_p50_ms: percentile(changeToMail, 0.5),
    change_to_mail_p99_ms: percentile(changeToMail, 0.99),
    due_to_mail_p99_ms: percentile(dueToMail, 0.99),
    error_rate: checks.length === 0 ? 0 : round(errors.length / checks.length, 4),
    error_codes: errorCodes,
    error_log_lines: Object.fromEntries([...errorLines].map(([service, { count }]) => [service, count])),
    pg_connections_max: pgConnections,
    crawler_queue_max: queued,
    browser_pages_in_use_max: browserPages,
    http_check_p50_ms: histogramQuantile(histogramsBefore.http, histogramsAfter.http, 0.5),
    browser_check_p50_ms: histogramQuantile(histogramsBefore.browser, histogramsAfter.browser, 0.5),
    per_check: withoutJetStream(perCheck(before, after, Math.max(1, betweenReadings[0]?.n ?? 0))),
    cpu_percent_of_a_core: cpuShares,
    rss_mb_minute_2: usageMinute2 ? megabytes(usageMinute2) : undefined,
    rss_mb_end: megabytes(usageEnd),
  };
  const broken = [
    ...(figures.dispatch_lag_p99_ms < HELD.dispatchLagP99Ms
      ? []
      : [`dispatch lag p99 ${seconds_(figures.dispatch_lag_p99_ms)} ≥ ${seconds_(HELD.dispatchLagP99Ms)}`]),
    ...(figures.completed_share >= HELD.completedShare
      ? []
      : [`${figures.checks_completed} of ${due} due checks completed (< ${HELD.completedShare * 100} %)`]),
    ...(figures.error_rate < HELD.errorRate
      ? []
      : [`error rate ${figures.error_rate} ≥ ${HELD.errorRate} (${JSON.stringify(errorCodes)})`]),
    ...(figures.due_to_completed_p99_ms < HELD.dueToCompletedP99Ms
      ? []
      : [`due → completed p99 ${seconds_(figures.due_to_completed_p99_ms)} ≥ one interval`]),
  ];
  const hottest = Object.entries(figures.cpu_percent_of_a_core)
    .sort(([, x], [, y]) => y.total - x.total)
    .slice(0, 3)
    .map(
      ([name, share]) => `${name} ${share.total} %${share.children ? ` (Chromium ${share.children} %)` : ''}`,
    );
  const busiest = `${queued} checks waiting for the crawler at most (CRAWLER_CONCURRENCY ${machine.crawler_concurrency}, ${browserPages} browser pages open at most); CPU: ${hottest.join(', ')}`;
  return {
    ...figures,
    held: broken.length === 0,
    reason:
      broken.length === 0
        ? ''
        : `${broken.join('; ')}. Busiest: ${busiest} (CPU, % of one core of ${machine.nproc})`,
  };
}

function withoutJetStream(costs: ReturnType<typeof perCheck>) {
  // The services publish from their own processes, out of the bench's sight.
  const { jetstream_messages, jetstream_bytes, jetstream_messages_by_subject, ...rest } = costs;
  return rest;
}

function megabytes(usage: Record<string, ProcessUsage>) {
  return Object.fromEntries(
    Object.entries(usage).map(([name, { rssMb, childRssMb }]) => [
      name,
      childRssMb > 0 ? { total: Math.round(rssMb), chromium: Math.round(childRssMb) } : Math.round(rssMb),
    ]),
  );
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

function seconds_(ms: number): string {
  return Number.isFinite(ms) ? `${round(ms / 1_000, 1)} s` : '> 60 s';
}

function printReport(): void {
  const last = steps.at(-1);
  const heldSteps = steps.filter((step) => step.held);
  const title = STEPS
    ? `load: stepping ${STEPS.join(' → ')} sites, ${STEP_MINUTES} min each, on one cluster; largest held: ${heldSteps.at(-1)?.sites ?? 'none'}${stoppedBecause ? `; stopped at ${last?.sites}: ${stoppedBecause}` : ''}`
    : `load: ${SITES} sites at a 1-minute interval for ${MINUTES} min${last?.held ? ', held' : `, not held: ${last?.reason}`}`;
  const written = unchanged
    ? `\nan unchanged check writes ${unchanged.pg_rows_per_unchanged_check} rows and ${unchanged.pg_bytes_per_unchanged_check} bytes to PostgreSQL (${unchanged.unchanged_checks} checks in ${QUIET_SECONDS} s without changes; rows and bytes as the write meter counts them, ADR 0032)`
    : '';
  // RSS by service at minute 2 and at the end of the last window (the Chromium column is part of the crawler's).
  const rssRows = Object.keys(last?.rss_mb_end ?? {}).map((service) => {
    const at = (usage: Step['rss_mb_end'] | undefined) => {
      const value = usage?.[service];
      return typeof value === 'object' ? value.total : (value ?? '');
    };
    const chromium = (usage: Step['rss_mb_end'] | undefined) => {
      const value = usage?.[service];
      return typeof value === 'object' ? value.chromium : '';
    };
    return {
      service,
      'RSS min 2 (MiB)': at(last?.rss_mb_minute_2),
      'RSS end (MiB)': at(last?.rss_mb_end),
      'of it Chromium min 2': chromium(last?.rss_mb_minute_2),
      'of it Chromium end': chromium(last?.rss_mb_end),
      'CPU % of a core': last?.cpu_percent_of_a_core[service]?.total ?? '',
    };
  });
  console.log(`\nprocesses at ${last?.sites} sites (minute 2 and end of the window; CPU over the window)`);
  console.table(rssRows);
  report(
    `${title}${written}\nmachine: ${machine.nproc} cores (${machine.cpu}), ${machine.memory_gib} GiB, load at start ${machine.load_at_start.join(' ')}, CRAWLER_CONCURRENCY ${machine.crawler_concurrency}; held = dispatch lag p99 < 10 s, ≥ 95 % of due checks completed, error rate < 1 %, due → completed p99 < 60 s`,
    steps.map((step) => ({
      sites: step.sites,
      held: step.held ? 'yes' : 'no',
      'completed/due': `${step.checks_completed}/${step.checks_due}`,
      'http/s': step.http_checks_per_s,
      'browser/s': step.browser_checks_per_s,
      'dispatch lag p50/p99 (s)': `${seconds_(step.dispatch_lag_p50_ms)} / ${seconds_(step.dispatch_lag_p99_ms)}`,
      'due→done p50/p99 (s)': `${seconds_(step.due_to_completed_p50_ms)} / ${seconds_(step.due_to_completed_p99_ms)}`,
      'change→mail p99 (s)': seconds_(step.change_to_mail_p99_ms),
      'due→mail p99 (s)': seconds_(step.due_to_mail_p99_ms),
      'mails/changes': `${step.update_mails}/${step.changes}`,
      errors: step.error_rate,
      'crawler queue max': step.crawler_queue_max,
      'PG rows/check': step.per_check.pg_rows_written,
      'PG bytes/check': step.per_check.pg_relation_bytes,
    })),
    {
      bench: 'load',
      machine,
      held_rule: HELD,
      pg_rows_per_unchanged_check: unchanged?.pg_rows_per_unchanged_check,
      pg_bytes_per_unchanged_check: unchanged?.pg_bytes_per_unchanged_check,
      unchanged,
      steps,
      stopped_because: stoppedBecause || undefined,
    },
  );
}
