import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgres } from '@mimamori/db';
import { generateSecretKey } from '@mimamori/secret-box';
import {
  createFreshDatabase,
  createHttpVisitor,
  type FreshDatabase,
  type HttpVisitor,
  type OwnServer,
  type SmtpServerFixture,
  startOwnNats,
  startOwnPostgres,
  startSmtpServer,
} from '@mimamori/test-fixtures';
import { type Cluster, launchCluster, type ServiceName } from '../../../../scripts/cluster/launch-cluster.ts';
import { type DiscordStandIn, startDiscordStandIn } from '../../../notifier/test/discord-stand-in.ts';
import { type DiscordFront, startDiscordFront } from '../pipeline/discord-front.ts';
import { startWatchedPage, type WatchedPage } from '../pipeline/watched-page.ts';

/** The check interval the site is registered with: the shortest there is. */
export const INTERVAL_MS = 60_000;
export const EMAIL = 'faults@example.jp';
const WEBHOOK_ID = '223456789012345678';
const WEBHOOK_URL = `https://discord.com/api/webhooks/${WEBHOOK_ID}/${randomBytes(48).toString('base64url')}`;

/**
 * The whole product in cluster mode on a NATS and a PostgreSQL of the test's own, so a fault
 * test can kill, halt and restart them (and any service) without touching anyone else's.
 */
export interface FaultRig {
  nats: OwnServer;
  postgres: OwnServer;
  database: FreshDatabase;
  smtp: SmtpServerFixture;
  discord: DiscordStandIn;
  page: WatchedPage;
  cluster: Cluster;
  /** Every output line of every service, tagged. */
  lines: string[];
  close(): Promise<void>;
}

/**
 * `name` names the file in test-results/ that keeps every service's log lines of the run, for
 * reading what happened around the fault.
 */
export async function startFaultRig(
  name: string,
  options: { smtpAcceptDelayMs?: number; env?: Record<string, string> } = {},
): Promise<FaultRig> {
  const [nats, postgres] = await Promise.all([startOwnNats(), startOwnPostgres()]);
  const database = await createFreshDatabase(postgres.url);
  const smtp = await startSmtpServer(
    options.smtpAcceptDelayMs ? { acceptDelayMs: options.smtpAcceptDelayMs } : {},
  );
  const discord = await startDiscordStandIn();
  const discordFront: DiscordFront = await startDiscordFront(discord.apiBase);
  const page = await startWatchedPage();
  const lines: string[] = [];
  const cluster = await launchCluster({
    onLine: (service, line) => lines.push(`${service}: ${line}`),
    databaseUrl: database.url,
    natsUrl: nats.url,
    smtpUrl: smtp.url,
    httpPort: 0,
    secretKeys: generateSecretKey('test'),
    env: {
      LOG_LEVEL: 'info',
      CRAWLER_ALLOW: page.host,
      DISCORD_API_BASE: discordFront.apiBase,
      ...options.env,
    },
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${lines.slice(-30).join('\n')}`);
  });
  return {
    nats,
    postgres,
    database,
    smtp,
    discord,
    page,
    cluster,
    lines,
    async close() {
      await cluster.stop();
      await mkdir('test-results', { recursive: true });
      await writeFile(`test-results/faults-${name}.log`, `${lines.join('\n')}\n`);
      await page.close();
      await discordFront.close();
      await discord.close();
      await smtp.close();
      await nats.close();
      await postgres.close();
    },
  };
}

/**
 * Signs up (verified by the mailed link), links the account's Discord webhook and registers
 * the sale page with e-mail and Discord on; resolves once the registration check recorded the
 * page as it is, so the next change of the price is an update.
 */
export async function watchSalePage(rig: FaultRig): Promise<{ siteId: string; visitor: HttpVisitor }> {
  const visitor = createHttpVisitor(rig.cluster.url);
  await visitor.get('/healthz');
  const signUp = await visitor.post('/api/signup', {
    email: EMAIL,
    password: 'abcd1234',
    agree: true,
    lang: 'en',
    plan: 4,
  });
  if (signUp.status !== 202) throw new Error(`sign-up answered ${signUp.status}`);
  const [mail] = await rig.smtp.waitForMessages(1, 60_000);
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  await expectOk(visitor.post('/api/verify', { token }), 'verify');
  await expectOk(visitor.post('/api/signin', { email: EMAIL, password: 'abcd1234' }), 'sign-in');
  await expectOk(visitor.post('/api/account/discord', { webhook_url: WEBHOOK_URL }), 'Discord link');

  const registered = await visitor.post('/api/v2/target/register', {
    label: 'Sale page',
    url: rig.page.url('/sale'),
    interval_minutes: 1,
    screenshot: true,
    mail_notify: true,
    chat_notify: 'account',
    user_agent: { kind: 'chrome', value: '' },
    areas: [
      {
        area_id: 'price',
        label: 'Price',
        content: '¥1,200',
        locator: { selector: '#price', selector_type: 'css' },
        options: { stripTags: true },
      },
    ],
    rules: { combine: 'and', groups: [] },
    fetch_mode: 'browser',
  });
  if (registered.status !== 201) throw new Error(`registration answered ${JSON.stringify(registered.body)}`);
  const siteId = (registered.body as { target_v2_id: string }).target_v2_id;
  await waitFor(
    'the registration check',
    async () => {
      const { body } = await visitor.get('/api/v2/targets');
      const rows = (body as { targets: { id: string; checked: string }[] }).targets;
      return rows.find((row) => row.id === siteId)?.checked ? true : undefined;
    },
    INTERVAL_MS + 60_000,
  );
  return { siteId, visitor };
}

async function expectOk(call: Promise<{ status: number; body: unknown }>, what: string) {
  const { status, body } = await call;
  if (status !== 200) throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
}

/** Polls `probe` until it gives something (not undefined or false); generous deadlines, no timing claims. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await probe();
    if (found !== undefined && found !== false) return found;
    await sleep(250);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

export const updateMails = (rig: FaultRig) =>
  rig.smtp.messages.filter((mail) => mail.subject === 'Mimamori: update on Sale page');

export const discordMessages = (rig: FaultRig) =>
  rig.discord.accepted.filter((message) => message.webhookId === WEBHOOK_ID);

/** The notifier's update deliveries as recorded; a fresh connection each time (servers restart). */
export async function updateDeliveries(
  rig: FaultRig,
): Promise<{ id: string; status: string; attempts: number }[]> {
  const db = openPostgres(rig.database.url, { max: 1 });
  try {
    const { rows } = await db.query<{ id: string; status: string; attempts: number }>(
      `SELECT id, status, attempts FROM notifier.deliveries WHERE id LIKE 'update:%' ORDER BY id`,
    );
    return rows;
  } finally {
    await db.close();
  }
}

/** Services that are no longer running (a crash the fault caused). */
export function exitedServices(rig: FaultRig): ServiceName[] {
  return [...rig.cluster.processes]
    .filter(([, child]) => child.exitCode !== null || child.signalCode !== null)
    .map(([service]) => service);
}

/** Log lines of level error or worse, for the failure message. */
export function errorLines(rig: FaultRig): string[] {
  return rig.lines.filter((line) => /"level":(50|60)/.test(line));
}
