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
import { afterAll, beforeAll, expect } from 'vitest';
import { type Cluster, launchCluster, type ServiceName } from '../../scripts/cluster/launch-cluster.ts';
import { type DiscordStandIn, startDiscordStandIn } from '../../services/notifier/test/discord-stand-in.ts';
import { type DiscordFront, startDiscordFront } from '../pipeline/discord-front.ts';
import { priceSiteRegistration } from '../pipeline/price-site.ts';
import { waitFor } from '../pipeline/wait-for.ts';
import { startWatchedPage, type WatchedPage } from '../pipeline/watched-page.ts';

export { waitFor };

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
 * Starts the rig before the file's tests and closes it after them (its log kept); the returned
 * function gives the running rig inside a test.
 */
export function useFaultRig(name: string, options: Parameters<typeof startFaultRig>[1] = {}): () => FaultRig {
  let rig: FaultRig | undefined;
  beforeAll(async () => {
    rig = await startFaultRig(name, options);
  }, 180_000);
  afterAll(async () => {
    await rig?.close();
  });
  return () => {
    if (!rig) throw new Error(`the fault rig ${name} did not start`);
    return rig;
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

  const registered = await visitor.post(
    '/api/v2/target/register',
    priceSiteRegistration('Sale page', rig.page.url('/sale')),
  );
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

export const updateMails = (rig: FaultRig) =>
  rig.smtp.messages.filter((mail) => mail.subject === 'Mimamori: update on Sale page');

export const discordMessages = (rig: FaultRig) =>
  rig.discord.accepted.filter((message) => message.webhookId === WEBHOOK_ID);

/**
 * Watches the sale page and lowers its price; resolves once the check that will find the update
 * is loading the page, the moment a mid-pipeline fault is caused.
 */
export async function changePriceDuringCheck(rig: FaultRig): Promise<void> {
  await watchSalePage(rig);
  const loadsBefore = rig.page.loads('/sale');
  rig.page.setPrice('/sale', '¥980 sale');
  await waitFor(
    'the check loading the changed page',
    () => rig.page.loads('/sale') > loadsBefore,
    INTERVAL_MS + 60_000,
  );
}

/**
 * After a fault the services are to survive: the update reaches e-mail and Discord, stays at one
 * copy each for 15 s more, no service died and every one answers ready again (its connections
 * back). Logs the scenario's figures with the recovery counted from `recoveryFrom`.
 */
export async function expectUpdateDeliveredOnce(
  rig: FaultRig,
  scenario: string,
  recoveryFrom: number,
  figures: Record<string, number> = {},
): Promise<void> {
  await waitFor(
    'the update by e-mail and Discord',
    async () => updateMails(rig).length >= 1 && discordMessages(rig).length >= 1,
    180_000,
  );
  const recoveredMs = Date.now() - recoveryFrom;
  await sleep(15_000);

  const rows = await updateDeliveries(rig);
  console.info(
    JSON.stringify({
      scenario,
      update_mails: updateMails(rig).length,
      discord_messages: discordMessages(rig).length,
      ...figures,
      recovery_ms: recoveredMs,
      deliveries: rows,
    }),
  );
  expect(exitedServices(rig)).toEqual([]);
  expect(updateMails(rig)).toHaveLength(1);
  expect(updateMails(rig)[0]?.text).toContain('- ¥1,200\n+ ¥980 sale');
  expect(discordMessages(rig)).toHaveLength(1);
  expect(rows.map((row) => row.status)).toEqual(['sent', 'sent']);
  expect(rig.discord.problems).toEqual([]);
  for (const [service, opsUrl] of rig.cluster.opsUrls) {
    expect((await fetch(new URL('readyz', opsUrl))).status, service).toBe(200);
  }
}

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
