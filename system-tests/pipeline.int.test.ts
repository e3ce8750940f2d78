import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgres } from '@mimamori/db';
import { blobKeys, type HttpVisitor, TEST_MINUTE_MS, testNatsUrl } from '@mimamori/test-fixtures';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkDiscord, registerSite, signUpVerified, untilChecked, WEBHOOK_ID } from './rig/account-steps.ts';
import { priceSiteRegistration } from './rig/price-site.ts';
import { useSystemRig } from './rig/system-rig.ts';
import { startTraceCollector } from './rig/trace-collector.ts';
import { waitFor } from './rig/wait-for.ts';

// Issue 6 end to end: every service as its own process, real PostgreSQL, JetStream, Chromium,
// an SMTP server and a Discord receiver; the shortest interval (1 minute, of the rig's scaled
// time) sets the pace.
const INTERVAL_MS = TEST_MINUTE_MS;
const EMAIL = 'pipeline@example.jp';

let traces: Awaited<ReturnType<typeof startTraceCollector>>;
beforeAll(async () => {
  traces = await startTraceCollector();
  return () => traces.close();
});
const rig = useSystemRig('pipeline', () => ({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: traces.endpoint } }));
let visitor: HttpVisitor;

/** The blobs the crawler and the diff service keep for one site (screenshots, snapshots, update pictures). */
const siteBlobs = async (targetId: string) =>
  (await blobKeys(testNatsUrl(), `${rig().namespace}_mimamori_blobs`)).filter((key) =>
    key.includes(`/${targetId}/`),
  );

/** The diff service's rows of one site: checks, updates and area versions. */
async function historyRows(targetId: string): Promise<number> {
  const db = openPostgres(rig().database.url, { max: 1 });
  try {
    const { rows } = await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM diff.check_results WHERE target_id = $1)
            + (SELECT count(*) FROM diff.updates WHERE target_id = $1)
            + (SELECT count(*) FROM diff.area_versions WHERE target_id = $1) AS n`,
      [targetId],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await db.close();
  }
}

async function scheduleRows(targetId: string): Promise<number> {
  const db = openPostgres(rig().database.url, { max: 1 });
  try {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scheduler.schedules WHERE target_id = $1',
      [targetId],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await db.close();
  }
}

const updateMails = () =>
  rig().smtp.messages.filter((mail) => / \| (Sale|Gone) page$/.test(mail.subject ?? ''));

const register = (label: string, path: string) =>
  registerSite(visitor, priceSiteRegistration(label, rig().page.url(path)));

describe('the monitoring pipeline in cluster mode', () => {
  it('signs up, verifies by the mailed link, signs in and links the account Discord webhook', async () => {
    visitor = await signUpVerified(rig(), { email: EMAIL, plan: 4 });
    expect(await linkDiscord(visitor)).toMatchObject({ discord_state: 'complete' });
    expect(rig().discordFront.textMessages).toHaveLength(1);
  });

  it('checks registered sites; one page change brings one e-mail and one Discord message; pause and delete stop the checks', async () => {
    const [sale, gone] = [await register('Sale page', '/sale'), await register('Gone page', '/gone')];
    // The registration checks record the pages as they are; nothing is announced.
    await untilChecked(visitor, [sale, gone]);
    const loadsBefore = rig().page.loads('/sale');

    rig().page.setPrice('/sale', '¥980 sale');
    await waitFor('the next check', () => rig().page.loads('/sale') > loadsBefore, INTERVAL_MS + 30_000);
    const [mail] = await waitFor('the update e-mail', () => updateMails()[0] && updateMails(), 60_000);
    const [message] = await rig().discord.waitForAccepted(WEBHOOK_ID, 1, 60_000);
    // One trace from the scheduler's dispatch through the crawler and diff to the notifier's
    // delivery; the services export in batches every few seconds.
    await waitFor(
      'one trace from dispatch to delivery',
      () => {
        const dispatched = traces.spans.filter(
          (span) => span.service === 'mimamori-scheduler' && span.name.endsWith('checks.run'),
        );
        return dispatched.some((dispatch) =>
          ['mimamori-crawler', 'mimamori-diff', 'mimamori-notifier'].every((service) =>
            traces.spans.some((span) => span.traceId === dispatch.traceId && span.service === service),
          ),
        );
      },
      30_000,
    );

    expect(JSON.stringify(mail?.to)).toContain(EMAIL);
    // The update's one line leads the subject (docs/product.md#summary).
    expect(mail?.subject).toBe('Mimamori: ¥1,200 → ¥980 (−18 %) | Sale page');
    expect(mail?.text).toContain('- ¥1,200\n+ ¥980 sale');
    expect(mail?.attachments.map((a) => [a.cid, a.filename, a.contentType])).toEqual([
      ['before', 'before.jpeg', 'image/jpeg'],
      ['after', 'after.jpeg', 'image/jpeg'],
    ]);
    for (const attachment of mail?.attachments ?? []) expect(attachment.size).toBeGreaterThan(100);

    const embed = message?.payload.embeds[0];
    expect(embed?.title).toBe('Sale page');
    expect(embed?.url).toBe(rig().page.url('/sale'));
    expect(embed?.description).toContain('- ¥1,200\n+ ¥980 sale');
    expect(embed?.image?.url).toBe('attachment://after.webp');
    expect(message?.files.map((file) => [file.field, file.filename])).toEqual([
      ['files[0]', 'before.webp'],
      ['files[1]', 'after.webp'],
    ]);
    for (const file of message?.files ?? []) expect(file.size).toBeGreaterThan(100);

    // What deleting the other site must remove: its schedule and the pictures of its checks.
    expect(await scheduleRows(gone)).toBe(1);
    expect((await siteBlobs(gone)).length).toBeGreaterThan(0);
    expect(await historyRows(gone)).toBeGreaterThan(0);

    const paused = await visitor.post('/api/v2/pause', { target_v2_id: sale });
    expect(paused.body).toMatchObject({ status: 'paused', changed: true });
    expect((await visitor.post('/api/v2/delete', { target_v2_id: gone })).body).toEqual({
      status: 'deleted',
    });
    const { body } = await visitor.get('/api/v2/targets');
    expect((body as { targets: { id: string }[] }).targets.map((row) => row.id)).toEqual([sale]);

    // A check dispatched just before the pause may still be loading; after that, five check
    // intervals pass without either page being loaded.
    await sleep(10_000);
    const loadsAtPause = [rig().page.loads('/sale'), rig().page.loads('/gone')];
    await sleep(5 * INTERVAL_MS);
    expect([rig().page.loads('/sale'), rig().page.loads('/gone')]).toEqual(loadsAtPause);

    // Deleting took the site's schedule, its history rows and the pictures of its checks (any
    // check still in flight at the delete has long finished); the paused site keeps them.
    await waitFor('the deleted site’s schedule to go', async () => (await scheduleRows(gone)) === 0, 30_000);
    await waitFor('the deleted site’s blobs to go', async () => (await siteBlobs(gone)).length === 0, 30_000);
    await waitFor(
      'the deleted site’s history rows to go',
      async () => (await historyRows(gone)) === 0,
      30_000,
    );
    expect(await scheduleRows(sale)).toBe(1);
    expect((await siteBlobs(sale)).length).toBeGreaterThan(0);
    expect(await historyRows(sale)).toBeGreaterThan(0);

    // Exactly one of each, however the events were delivered.
    expect(updateMails()).toHaveLength(1);
    expect(rig().discord.accepted).toHaveLength(1);
    expect(rig().discord.problems).toEqual([]);
  }, 180_000);
});
