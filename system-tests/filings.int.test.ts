import { randomBytes } from 'node:crypto';
import { createJetStreamBus } from '@mimamori/bus';
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
import { type FilingsStandIn, startFilingsStandIn } from '../services/filings/test/filings-stand-in.ts';
import { type DiscordStandIn, startDiscordStandIn } from '../services/notifier/test/discord-stand-in.ts';
import { type DiscordFront, startDiscordFront } from './rig/discord-front.ts';
import { searchUntilFound } from './rig/search-directory.ts';
import { waitFor } from './rig/wait-for.ts';

// Issue 16 end to end in cluster mode: every service its own process, real PostgreSQL,
// JetStream, an SMTP server and a Discord receiver; the SEC replayed by the filings stand-in.
// The filings service polls every 10 s (the shortest FILINGS_POLL_INTERVAL_SECONDS).
const POLL_MS = 10_000;
const EMAIL = 'filings@example.com';
const WEBHOOK_ID = '223456789012345678';
const WEBHOOK_URL = `https://discord.com/api/webhooks/${WEBHOOK_ID}/${randomBytes(48).toString('base64url')}`;

let database: FreshDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let discord: DiscordStandIn;
let discordFront: DiscordFront;
let sources: FilingsStandIn;
let cluster: Cluster;
let visitor: HttpVisitor;
const namespace = `f${randomBytes(4).toString('hex')}`;
const lines: string[] = [];

beforeAll(async () => {
  database = await createFreshDatabase();
  smtp = await startSmtpServer();
  discord = await startDiscordStandIn();
  discordFront = await startDiscordFront(discord.apiBase);
  sources = await startFilingsStandIn();
  // Apple's backlog: a filing from an hour before anyone follows, recent enough to be news.
  sources.submissions.push({
    accession: '0000320193-26-000001',
    acceptedAt: new Date(Date.now() - 3_600_000),
    form: '10-K',
  });
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
      DISCORD_API_BASE: discordFront.apiBase,
      ...sources.env(['sec']),
      FILINGS_POLL_INTERVAL_SECONDS: String(POLL_MS / 1_000),
    },
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${lines.slice(-20).join('\n')}`);
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  const bus = await createJetStreamBus({ servers: testNatsUrl() });
  for (const { name } of Object.values(streams)) {
    if (await bus.hasStream(`${namespace}_${name}`)) await bus.deleteStream(`${namespace}_${name}`);
  }
  await bus.close();
  await sources?.close();
  await discordFront?.close();
  await discord?.close();
  await smtp?.close();
  await database?.drop();
});

const polls = () =>
  sources.server.requests.filter((request) => request.path.startsWith('/submissions/')).length;
const filingMails = (form: string) =>
  smtp.messages.filter((mail) => mail.subject === `Mimamori: Apple Inc. filed "${form}"`);
const filingMessages = (form: string) =>
  discord.accepted.filter(
    (message) => message.webhookId === WEBHOOK_ID && message.payload.embeds[0]?.title === form,
  );

/** Waits until the filings service has asked the SEC `count` more times. */
async function pollsAfter(count: number) {
  const seen = polls();
  await waitFor(`${count} more polls`, () => polls() >= seen + count, count * POLL_MS + 60_000);
}

describe('company filings in cluster mode', () => {
  it('signs up with a zone, links Discord and follows Apple; the backlog is not announced', async () => {
    visitor = createHttpVisitor(cluster.url);
    await visitor.get('/healthz');
    const signUp = await visitor.post('/api/signup', {
      email: EMAIL,
      password: 'abcd1234',
      agree: true,
      lang: 'en',
      timezone: 'America/New_York',
    });
    expect(signUp.status).toBe(202);
    const [mail] = await smtp.waitForMessages(1, 30_000);
    const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    expect((await visitor.post('/api/verify', { token })).status).toBe(200);
    expect((await visitor.post('/api/signin', { email: EMAIL, password: 'abcd1234' })).status).toBe(200);
    const linked = await visitor.post('/api/account/discord', { webhook_url: WEBHOOK_URL });
    expect(linked.body).toMatchObject({ discord_state: 'complete' });

    const found = await searchUntilFound(visitor, '/api/cik/search', 'AAPL');
    expect(found).toEqual([{ label: 'Apple Inc.', cik: '320193', ticker: 'AAPL' }]);
    const followed = await visitor.post('/api/cik/register', found[0]);
    expect(followed.status).toBe(200);
    expect((await visitor.get('/api/user_info')).body).toMatchObject({
      cik_isins: [{ label: 'Apple Inc.', cik: '320193', ticker: 'AAPL', isin: '' }],
    });

    await pollsAfter(2);
    expect(filingMails('10-K')).toEqual([]);
    expect(filingMessages('10-K')).toEqual([]);
  }, 240_000);

  it('a new filing brings one e-mail and one Discord message; later polls send nothing', async () => {
    const acceptedAt = new Date();
    sources.submissions.push({ accession: '0000320193-26-000002', acceptedAt, form: '8-K' });
    const [mail] = await waitFor(
      'the filing e-mail',
      () => filingMails('8-K').length > 0 && filingMails('8-K'),
      90_000,
    );
    const [message] = await discord.waitForAccepted(WEBHOOK_ID, 1, 60_000);

    expect(JSON.stringify(mail?.to)).toContain(EMAIL);
    // The time in the follower's zone, the company and the document link, in text and HTML.
    const zoned = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/New_York',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .format(acceptedAt)
      .replace(', ', ' ');
    const documentUrl = `${sources.server.url}/Archives/edgar/data/320193/000032019326000002/0000320193-26-000002.htm`;
    expect(mail?.text).toContain(`Published: ${zoned}`);
    expect(mail?.text).toContain('Company: Apple Inc. (320193)');
    expect(mail?.text).toContain(documentUrl);
    expect(mail?.html).toContain(documentUrl);
    expect(message?.payload.embeds[0]).toMatchObject({ title: '8-K', url: documentUrl });
    expect(discord.problems).toEqual([]);

    await pollsAfter(2);
    expect(filingMails('8-K')).toHaveLength(1);
    expect(filingMessages('8-K')).toHaveLength(1);
  }, 240_000);

  it('restarting the filings service and the notifier in the middle sends nothing twice', async () => {
    sources.submissions.push({ accession: '0000320193-26-000003', acceptedAt: new Date(), form: '8-K/A' });
    // The poller dies abruptly right after the filing is listed; the notifier is replaced while
    // the notice is on its way.
    const seen = polls();
    await waitFor('the poll that lists it', () => polls() > seen, POLL_MS + 60_000);
    await cluster.restart('filings', 'SIGKILL');
    await waitFor('the filing e-mail', () => filingMails('8-K/A').length > 0, 120_000);
    await cluster.restart('notifier');
    await discord.waitForAccepted(WEBHOOK_ID, 2, 90_000);

    await pollsAfter(2);
    expect(filingMails('8-K/A')).toHaveLength(1);
    expect(filingMessages('8-K/A')).toHaveLength(1);
    expect(filingMails('8-K')).toHaveLength(1);
    expect(filingMessages('8-K')).toHaveLength(1);
    expect(filingMails('10-K')).toEqual([]);
  }, 300_000);
});
