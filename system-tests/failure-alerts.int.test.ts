import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createJetStreamBus } from '@mimamori/bus';
import { openPostgres } from '@mimamori/db';
import { streams } from '@mimamori/events';
import { generateSecretKey } from '@mimamori/secret-box';
import {
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
import { type DiscordFront, startDiscordFront } from './pipeline/discord-front.ts';
import { priceSiteRegistration } from './pipeline/price-site.ts';
import { waitFor } from './pipeline/wait-for.ts';
import { startWatchedPage, type WatchedPage } from './pipeline/watched-page.ts';

// Issue 21, failure alerts with recovery, end to end: every service as its own process, real
// PostgreSQL, JetStream, an SMTP server and a Discord receiver. A site checked every minute fails
// five checks in a row (its area vanished), then works again. The scheduler's backoff is capped at
// one minute so five failures take minutes, not the hour the default backoff would stretch them to.
const INTERVAL_MS = 60_000;
const EMAIL = 'alerts@example.jp';
const WEBHOOK_ID = '223456789012345678';
const WEBHOOK_URL = `https://discord.com/api/webhooks/${WEBHOOK_ID}/${randomBytes(48).toString('base64url')}`;

let database: FreshDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let discord: DiscordStandIn;
let discordFront: DiscordFront;
let page: WatchedPage;
let cluster: Cluster;
let visitor: HttpVisitor;
const namespace = `fa${randomBytes(4).toString('hex')}`;
const lines: string[] = [];

beforeAll(async () => {
  database = await createFreshDatabase();
  smtp = await startSmtpServer();
  discord = await startDiscordStandIn();
  discordFront = await startDiscordFront(discord.apiBase);
  page = await startWatchedPage();
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
      SCHEDULER_BACKOFF_MAX_MINUTES: '1',
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
  await database?.drop();
});

/** Failed checks the diff service recorded for the site. */
async function failedChecks(targetId: string): Promise<number> {
  const db = openPostgres(database.url, { max: 1 });
  try {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM diff.check_results WHERE target_id = $1 AND outcome = 'error'`,
      [targetId],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await db.close();
  }
}

type Row = { id: string; checked: string | null; failing: { since: string; kind: string } | null };
async function row(targetId: string): Promise<Row | undefined> {
  const { body } = await visitor.get('/api/v2/targets');
  return (body as { targets: Row[] }).targets.find((candidate) => candidate.id === targetId);
}

const alertMails = () => smtp.messages.filter((mail) => mail.subject?.includes('are failing'));
const recoveryMails = () => smtp.messages.filter((mail) => mail.subject?.includes('is working again'));
const posts = () => discord.accepted.filter((post) => post.webhookId === WEBHOOK_ID);

describe('failure alerts with recovery in cluster mode', () => {
  it('a site failing 5 times sends one alert per channel and, once it works, one recovery message', async () => {
    visitor = createHttpVisitor(cluster.url);
    await visitor.get('/healthz');
    const signup = await visitor.post('/api/signup', {
      email: EMAIL,
      password: 'abcd1234',
      agree: true,
      lang: 'en',
      plan: 4,
    });
    expect(signup.status).toBe(202);
    const [mail] = await smtp.waitForMessages(1, 30_000);
    const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    expect((await visitor.post('/api/verify', { token })).status).toBe(200);
    expect((await visitor.post('/api/signin', { email: EMAIL, password: 'abcd1234' })).status).toBe(200);
    expect((await visitor.post('/api/account/discord', { webhook_url: WEBHOOK_URL })).status).toBe(200);

    // Read over plain HTTP (no browser needed to tell an area is gone); alerts after 3 of a kind.
    const registered = await visitor.post('/api/v2/target/register', {
      ...priceSiteRegistration('Flaky page', page.url('/flaky')),
      fetch_mode: 'http',
      screenshot: false,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const targetId = (registered.body as { target_v2_id: string }).target_v2_id;
    await waitFor(
      'the first check',
      async () => Boolean((await row(targetId))?.checked),
      INTERVAL_MS + 60_000,
    );
    expect((await row(targetId))?.failing).toBeNull();

    page.setBroken('/flaky', true);
    await waitFor(
      'the third failed check',
      async () => (await failedChecks(targetId)) >= 3,
      4 * INTERVAL_MS + 60_000,
    );
    const [alert] = await waitFor('the failure alert mail', () => alertMails()[0] && alertMails(), 60_000);
    await discord.waitForAccepted(WEBHOOK_ID, 1, 60_000);
    expect(alert?.subject).toBe('Mimamori: checks of “Flaky page” are failing');
    expect(alert?.text).toContain('The last 3 checks of “Flaky page” failed: the area “Price” was not found');
    expect(posts()[0]?.payload.embeds[0]?.title).toBe('Mimamori: checks of “Flaky page” are failing');
    const failing = await waitFor(
      'the failing state on the list',
      async () => (await row(targetId))?.failing ?? undefined,
      30_000,
    );
    expect(failing.kind).toBe('element_not_found');

    // Two more failures tell nobody anything.
    await waitFor(
      'the fifth failed check',
      async () => (await failedChecks(targetId)) >= 5,
      3 * INTERVAL_MS + 60_000,
    );
    page.setBroken('/flaky', false);
    const [recovery] = await waitFor(
      'the recovery mail',
      () => recoveryMails()[0] && recoveryMails(),
      3 * INTERVAL_MS,
    );
    await discord.waitForAccepted(WEBHOOK_ID, 2, 60_000);
    expect(recovery?.subject).toBe('Mimamori: “Flaky page” is working again');
    expect(posts()[1]?.payload.embeds[0]?.title).toBe('Mimamori: “Flaky page” is working again');
    await waitFor('the failing state to clear', async () => (await row(targetId))?.failing === null, 30_000);

    // Another good check later, still exactly one of each.
    const loads = page.loads('/flaky');
    await waitFor('one more check', () => page.loads('/flaky') > loads, 2 * INTERVAL_MS);
    await sleep(10_000);
    expect(alertMails()).toHaveLength(1);
    expect(recoveryMails()).toHaveLength(1);
    expect(posts()).toHaveLength(2);
    expect(JSON.stringify(alert?.to)).toContain(EMAIL);
    expect(discord.problems).toEqual([]);
  }, 900_000);
});
