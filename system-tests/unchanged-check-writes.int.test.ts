import { setTimeout as sleep } from 'node:timers/promises';
import { type Db, openPostgres } from '@mimamori/db';
import {
  type BusWatch,
  type HttpVisitor,
  installWriteMeter,
  serviceSchemas,
  TEST_MINUTE_MS,
  testNatsUrl,
  type WriteMeter,
  type WriteReading,
  watchBus,
} from '@mimamori/test-fixtures';
import { afterAll, describe, expect, it } from 'vitest';
import { registerSite, signUpVerified, siteRow, untilChecked } from './rig/account-steps.ts';
import { priceSiteRegistration } from './rig/price-site.ts';
import { useSystemRig } from './rig/system-rig.ts';
import { waitFor } from './rig/wait-for.ts';

// Issue 36: a check that finds nothing new writes at most 2 rows and 400 bytes to PostgreSQL,
// summed over every service's schema (the measurement: packages/test-fixtures/src/write-meter.ts,
// ADR 0032), in cluster mode on real PostgreSQL and JetStream; a check that finds a change still
// records its update and history.
const ROWS_PER_UNCHANGED_CHECK = 2;
const BYTES_PER_UNCHANGED_CHECK = 400;
/** Checks measured: both sites, several intervals of the rig's scaled minute. */
const MEASURED_CHECKS = 12;

// The one browser check in 30 that renders whatever its answers leaves the kept state as it is when
// it read the same, but once half the render's time limit has passed it keeps its time (1.6 KB).
// Scaled, that limit is 2 minutes here, half of it within this file's run: the drawn renders are
// left out, the crawler's revalidation test covers them and the load bench counts them.
const rig = useSystemRig('unchanged-writes', () => ({ env: { CRAWLER_FORCED_RENDER_EVERY: '0' } }));
let visitor: HttpVisitor;
let db: Db;
let bus: BusWatch;
let meter: WriteMeter | undefined;
afterAll(async () => {
  await meter?.remove();
  await bus?.close();
  await db?.close();
});

const CHECKS_SQL = 'SELECT count(*)::int AS n FROM diff.check_results';
/**
 * Each row's xmax in the tables an unchanged check reads but must not write, not even lock: an
 * upsert whose WHERE refuses still locks its row, which sets xmax, dirties the page and writes WAL,
 * and the write meter (row versions) cannot see it (ADR 0037).
 */
const LOCKS_SQL = `
  SELECT 'diff.history_limits' AS source, target_id::text AS site, xmax::text FROM diff.history_limits
  UNION ALL SELECT 'scheduler.kept_check_state', target_id::text, xmax::text FROM scheduler.kept_check_state
  UNION ALL SELECT 'scheduler.schedules', target_id::text, xmax::text FROM scheduler.schedules
  UNION ALL SELECT 'target.targets', id::text, xmax::text FROM target.targets
  UNION ALL SELECT 'notifier.target_notices', target_id::text, xmax::text FROM notifier.target_notices
  UNION ALL SELECT 'notifier.error_streaks', target_id::text, xmax::text FROM notifier.error_streaks
  UNION ALL SELECT 'notifier.silences', target_id::text, xmax::text FROM notifier.silences
  ORDER BY 1, 2`;
const locks = async () => (await db.query<{ source: string; site: string; xmax: string }>(LOCKS_SQL)).rows;
const checksOf = async (targetId: string) =>
  Number(
    (
      await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM diff.check_results WHERE target_id = $1',
        [targetId],
      )
    ).rows[0]?.n,
  );

/** Nothing published is still being written down: every consumer acked, every outbox relayed. */
async function untilSettled(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT coalesce(sum(n), 0)::int AS n FROM (
         SELECT (xpath('/row/n/text()', query_to_xml(format(
                  'SELECT count(*) AS n FROM %I.outbox WHERE published_at IS NULL', table_schema), false, true, '')))[1]::text::int AS n
           FROM information_schema.tables WHERE table_name = 'outbox') unpublished`,
    );
    if (rows[0]?.n === 0 && (await bus.idle())) return;
    if (Date.now() > deadline) throw new Error('the pipeline did not settle within 60 s');
    await sleep(20);
  }
}

/**
 * The meter and the count of checks the diff service recorded, read when the pipeline is settled
 * and read the same again after it settled once more: so every write of every counted check is
 * in, and no check counted is half written.
 */
async function settledReading(): Promise<WriteReading & { checks: number }> {
  for (;;) {
    await untilSettled();
    const first = await meter?.read<number>(CHECKS_SQL);
    await untilSettled();
    const second = await meter?.read<number>(CHECKS_SQL);
    if (first && second && first.rows === second.rows && first.extra === second.extra) {
      return { ...second, checks: second.extra ?? 0 };
    }
  }
}

describe('what an unchanged check writes, in cluster mode', () => {
  it('unchanged checks write at most 2 rows and 400 bytes each across every schema; a changed one records its update and history', async () => {
    db = openPostgres(rig().database.url, { max: 2 });
    bus = await watchBus(testNatsUrl(), rig().namespace);
    visitor = await signUpVerified(rig(), { email: 'unchanged@example.jp', plan: 4 });
    const http = await registerSite(visitor, {
      ...priceSiteRegistration('Quiet page', rig().page.url('/quiet')),
      fetch_mode: 'http',
      screenshot: false,
    });
    const browser = await registerSite(
      visitor,
      priceSiteRegistration('Quiet browser page', rig().page.url('/quiet-browser')),
    );
    await untilChecked(visitor, [http, browser]);
    // Past the registration check and the start check a minute after it (ADR 0020): what a site
    // keeps once (its history limits, its kept state, its silence count) is in place.
    await waitFor(
      'three checks of each site',
      async () => ((await checksOf(http)) >= 3 && (await checksOf(browser)) >= 3) || undefined,
      20 * TEST_MINUTE_MS,
    );

    meter = await installWriteMeter(db, await serviceSchemas(db));
    await untilSettled();
    await meter.reset();
    // A check may complete between the reset and the first settled reading: what it wrote is in
    // `start` with it, so the measure is what was written after `start`, over the checks after it.
    const start = await settledReading();
    const locksBefore = await locks();
    await waitFor(
      `${MEASURED_CHECKS} more checks`,
      async () =>
        Number((await db.query<{ n: number }>(CHECKS_SQL)).rows[0]?.n) >= start.checks + MEASURED_CHECKS ||
        undefined,
      20 * TEST_MINUTE_MS,
    );
    const end = await settledReading();
    const locksAfter = await locks();
    const checks = end.checks - start.checks;
    const perCheck = {
      rows: (end.rows - start.rows) / checks,
      bytes: (end.bytes - start.bytes) / checks,
      byTable: end.byTable,
    };
    console.log(`unchanged checks: ${checks}; per check ${JSON.stringify(perCheck)}`);
    expect(checks).toBeGreaterThanOrEqual(MEASURED_CHECKS);
    // Every one of them found the pages as they were.
    const { rows: outcomes } = await db.query<{ outcome: string }>(
      `SELECT DISTINCT outcome FROM diff.check_results WHERE completed_at > now() - interval '1 hour'
        AND check_id NOT IN (SELECT check_id FROM diff.check_results ORDER BY completed_at LIMIT 2)`,
    );
    expect(outcomes.map((row) => row.outcome)).toEqual(['no_change']);
    expect(perCheck.rows).toBeLessThanOrEqual(ROWS_PER_UNCHANGED_CHECK);
    expect(perCheck.bytes).toBeLessThanOrEqual(BYTES_PER_UNCHANGED_CHECK);
    // Nor did they lock a row they only read: the browser site's kept state and both sites' history
    // limits among them (each was locked by every check before).
    expect(locksBefore.map((row) => row.source)).toEqual(
      expect.arrayContaining(['diff.history_limits', 'scheduler.kept_check_state', 'notifier.silences']),
    );
    expect(locksAfter).toEqual(locksBefore);
    // The list still shows when each site was last checked.
    const checkedBefore = new Date((await siteRow(visitor, http))?.checked ?? 0);
    await waitFor(
      'the list’s checked time to move on',
      async () => new Date((await siteRow(visitor, http))?.checked ?? 0) > checkedBefore || undefined,
      10 * TEST_MINUTE_MS,
    );
    await meter.remove();
    meter = undefined;

    // A change still becomes an update: the list shows it as new (reading the history would
    // clear that), and the history holds it between the site's unchanged checks.
    rig().page.setPrice('/quiet', '¥980');
    const row = await waitFor(
      'the list to show the update',
      async () => {
        const { body } = await visitor.get('/api/v2/targets');
        const rows = (body as { targets: { id: string; updated: string | null; new: boolean }[] }).targets;
        return rows.find((site) => site.id === http && site.updated !== null);
      },
      10 * TEST_MINUTE_MS,
    );
    expect(row.new).toBe(true);
    const { body } = await visitor.get(`/api/v2/history?id=${http}&filter=all`);
    const entries = (body as { entries: { outcome: string }[] }).entries;
    expect(entries.filter((entry) => entry.outcome === 'update')).toHaveLength(1);
    expect(entries.filter((entry) => entry.outcome === 'no_change').length).toBeGreaterThanOrEqual(3);
  }, 180_000);
});
