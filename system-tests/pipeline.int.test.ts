import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createJetStreamBus } from '@mimamori/bus';
import { openPostgres } from '@mimamori/db';
import { streams } from '@mimamori/events';
import { generateSecretKey } from '@mimamori/secret-box';
import {
  blobKeys,
  createFreshDatabase,
  createHttpVisitor,
  type FreshDatabase,
  type HttpVisitor,
  startSmtpServer,
  testNatsUrl,
} from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, launchCluster } from '../scripts/cluster/launch-cluster.ts';
import { type DiscordStandIn, startDiscordStandIn } from '../services/notifier/test/discord-stand-in.ts';
import { type DiscordFront, startDiscordFront } from './rig/discord-front.ts';
import { priceSiteRegistration } from './rig/price-site.ts';
import { startTraceCollector } from './rig/trace-collector.ts';
import { waitFor } from './rig/wait-for.ts';
import { startWatchedPage, type WatchedPage } from './rig/watched-page.ts';

// Issue 6 end to end: every service as its own process, real PostgreSQL, JetStream, Chromium,
// an SMTP server and a Discord receiver; the shortest interval (1 minute) sets the pace.
const INTERVAL_MS = 60_000;
const EMAIL = 'pipeline@example.jp';
const WEBHOOK_ID = '123456789012345678';
const WEBHOOK_URL = `https://discord.com/api/webhooks/${WEBHOOK_ID}/${randomBytes(48).toString('base64url')}`;

let database: FreshDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let discord: DiscordStandIn;
let discordFront: DiscordFront;
let page: WatchedPage;
let cluster: Cluster;
let visitor: HttpVisitor;
let traces: Awaited<ReturnType<typeof startTraceCollector>>;
const namespace = `p${randomBytes(4).toString('hex')}`;
const lines: string[] = [];

beforeAll(async () => {
  database = await createFreshDatabase();
  smtp = await startSmtpServer();
  discord = await startDiscordStandIn();
  discordFront = await startDiscordFront(discord.apiBase);
  page = await startWatchedPage();
  traces = await startTraceCollector();
  cluster = await launchCluster({
    onLine: (service, line) => lines.push(`${service}: ${line}`),
    databaseUrl: database.url,
    natsUrl: testNatsUrl(),
    smtpUrl: smtp.url,
    httpPort: 0,
    secretKeys: generateSecretKey('test'),
    env: {
      BUS_NAMESPACE: namespace,
      LOG_LEVEL: 'warn',
      CRAWLER_ALLOW: page.host,
      DISCORD_API_BASE: discordFront.apiBase,
      OTEL_EXPORTER_OTLP_ENDPOINT: traces.endpoint,
    },
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${lines.slice(-20).join('\n')}`);
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  const bus = await createJetStreamBus({ servers: testNatsUrl() });
  for (const { name } of Object.values(streams)) {
    if (await bus.hasStream(`${namespace}_${name}`)) await bus.deleteStream(`${namespace}_${name}`);
  }
  await bus.close();
  await page?.close();
  await discordFront?.close();
  await discord?.close();
  await smtp?.close();
  await traces?.close();
  await database?.drop();
});

/** The blobs the crawler and the diff service keep for one site (screenshots, snapshots, update pictures). */
const siteBlobs = async (targetId: string) =>
  (await blobKeys(testNatsUrl(), `${namespace}_mimamori_blobs`)).filter((key) =>
    key.includes(`/${targetId}/`),
  );

/** The diff service's rows of one site: checks, updates and area versions. */
async function historyRows(targetId: string): Promise<number> {
  const db = openPostgres(database.url, { max: 1 });
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
  const db = openPostgres(database.url, { max: 1 });
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

const updateMails = () => smtp.messages.filter((mail) => mail.subject?.startsWith('Mimamori: update on'));

async function register(label: string, path: string): Promise<string> {
  const registered = await visitor.post(
    '/api/v2/target/register',
    priceSiteRegistration(label, page.url(path)),
  );
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const body = registered.body as { target_v2_id: string; paused: boolean };
  expect(body.paused).toBe(false);
  return body.target_v2_id;
}

describe('the monitoring pipeline in cluster mode', () => {
  it('signs up, verifies by the mailed link, signs in and links the account Discord webhook', async () => {
    visitor = createHttpVisitor(cluster.url);
    await visitor.get('/healthz');
    expect(
      (
        await visitor.post('/api/signup', {
          email: EMAIL,
          password: 'abcd1234',
          agree: true,
          lang: 'en',
          plan: 4,
        })
      ).status,
    ).toBe(202);
    const [mail] = await smtp.waitForMessages(1, 30_000);
    const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    expect((await visitor.post('/api/verify', { token })).status).toBe(200);
    expect((await visitor.post('/api/signin', { email: EMAIL, password: 'abcd1234' })).status).toBe(200);

    const linked = await visitor.post('/api/account/discord', { webhook_url: WEBHOOK_URL });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ discord_state: 'complete' });
    expect(discordFront.textMessages).toHaveLength(1);
  });

  it('checks registered sites; one page change brings one e-mail and one Discord message; pause and delete stop the checks', async () => {
    const [sale, gone] = [await register('Sale page', '/sale'), await register('Gone page', '/gone')];
    // The registration checks record the pages as they are; nothing is announced.
    await waitFor(
      'the registration checks',
      async () => {
        const { body } = await visitor.get('/api/v2/targets');
        const rows = (body as { targets: { id: string; checked: string }[] }).targets;
        return [sale, gone].every((id) => rows.find((row) => row.id === id)?.checked) || undefined;
      },
      INTERVAL_MS + 30_000,
    );
    const loadsBefore = page.loads('/sale');

    page.setPrice('/sale', '¥980 sale');
    await waitFor('the next check', () => page.loads('/sale') > loadsBefore, INTERVAL_MS + 30_000);
    const [mail] = await waitFor('the update e-mail', () => updateMails()[0] && updateMails(), 60_000);
    const [message] = await discord.waitForAccepted(WEBHOOK_ID, 1, 60_000);
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
    expect(mail?.subject).toBe('Mimamori: update on Sale page');
    expect(mail?.text).toContain('- ¥1,200\n+ ¥980 sale');
    expect(mail?.attachments.map((a) => [a.cid, a.filename, a.contentType])).toEqual([
      ['before', 'before.jpeg', 'image/jpeg'],
      ['after', 'after.jpeg', 'image/jpeg'],
    ]);
    for (const attachment of mail?.attachments ?? []) expect(attachment.size).toBeGreaterThan(100);

    const embed = message?.payload.embeds[0];
    expect(embed?.title).toBe('Sale page');
    expect(embed?.url).toBe(page.url('/sale'));
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

    // A check dispatched just before the pause may still be loading; after that, a whole check
    // interval passes without either page being loaded.
    await sleep(10_000);
    const loadsAtPause = [page.loads('/sale'), page.loads('/gone')];
    await sleep(INTERVAL_MS + 15_000);
    expect([page.loads('/sale'), page.loads('/gone')]).toEqual(loadsAtPause);

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
    expect(discord.accepted).toHaveLength(1);
    expect(discord.problems).toEqual([]);
  }, 300_000);
});
