import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createJetStreamBus } from '@mimamori/bus';
import { streams } from '@mimamori/events';
import { generateSecretKey } from '@mimamori/secret-box';
import {
  createFreshDatabase,
  type FreshDatabase,
  type OwnServer,
  type SmtpServerFixture,
  startOwnNats,
  startOwnPostgres,
  startSmtpServer,
  testNatsUrl,
  testTimeEnv,
} from '@mimamori/test-fixtures';
import { afterAll, beforeAll } from 'vitest';
import { type Cluster, launchCluster } from '../../scripts/cluster/launch-cluster.ts';
import { type DiscordStandIn, startDiscordStandIn } from '../../services/notifier/test/discord-stand-in.ts';
import { type DiscordFront, startDiscordFront } from './discord-front.ts';
import { startWatchedPage, type WatchedPage } from './watched-page.ts';

/** The whole product in cluster mode with the outside world it talks to, as every system test starts it. */
export interface SystemRig {
  cluster: Cluster;
  database: FreshDatabase;
  smtp: SmtpServerFixture;
  /** The Discord API stand-in that checks each post, behind a front that also takes plain text. */
  discord: DiscordStandIn;
  discordFront: DiscordFront;
  /** A shop page on loopback whose price the test changes; the crawler may load it. */
  page: WatchedPage;
  /** The NATS and PostgreSQL of the rig's own, when asked for (fault tests stop them). */
  nats?: OwnServer;
  postgres?: OwnServer;
  /** The services' bus namespace on the machine's NATS (empty on the rig's own). */
  namespace: string;
  /** Every output line of every service, tagged with its service. */
  lines: string[];
  close(): Promise<void>;
}

export interface SystemRigOptions {
  /**
   * A NATS and a PostgreSQL of the rig's own, so a test can halt and restart them; else the
   * machine's, with a bus namespace and a database of the rig's own.
   */
  ownServers?: boolean;
  /** Each mail takes this long to be accepted (a fault lands while one is in flight). */
  smtpAcceptDelayMs?: number;
  /** The services' log level (warn unless set; info lines are read by fault tests). */
  logLevel?: string;
  /** Extra environment for every service. */
  env?: Record<string, string>;
}

/**
 * Starts the rig. `name` names test-results/system-<name>.log, which keeps every service's log
 * lines of the run for reading what happened.
 */
export async function startSystemRig(name: string, options: SystemRigOptions = {}): Promise<SystemRig> {
  const [nats, postgres] = options.ownServers
    ? await Promise.all([startOwnNats(), startOwnPostgres()])
    : [undefined, undefined];
  const natsUrl = nats?.url ?? testNatsUrl();
  const namespace = nats
    ? ''
    : `${name.replace(/[^a-z0-9]/g, '').slice(0, 8)}${randomBytes(4).toString('hex')}`;
  const [database, smtp, discord, page] = await Promise.all([
    createFreshDatabase(postgres?.url),
    startSmtpServer(options.smtpAcceptDelayMs ? { acceptDelayMs: options.smtpAcceptDelayMs } : {}),
    startDiscordStandIn(),
    startWatchedPage(),
  ]);
  const discordFront = await startDiscordFront(discord.apiBase);
  const lines: string[] = [];
  const cluster = await launchCluster({
    onLine: (service, line) => lines.push(`${service}: ${line}`),
    databaseUrl: database.url,
    natsUrl,
    smtpUrl: smtp.url,
    httpPort: 0,
    secretKeys: generateSecretKey('test'),
    env: {
      ...testTimeEnv,
      ...(namespace ? { BUS_NAMESPACE: namespace } : {}),
      LOG_LEVEL: options.logLevel ?? 'warn',
      CRAWLER_ALLOW: page.host,
      DISCORD_API_BASE: discordFront.apiBase,
      ...options.env,
    },
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${lines.slice(-30).join('\n')}`);
  });
  return {
    cluster,
    database,
    smtp,
    discord,
    discordFront,
    page,
    ...(nats ? { nats } : {}),
    ...(postgres ? { postgres } : {}),
    namespace,
    lines,
    async close() {
      await cluster.stop();
      await mkdir('test-results', { recursive: true });
      await writeFile(`test-results/system-${name}.log`, `${lines.join('\n')}\n`);
      if (namespace) await deleteStreams(natsUrl, namespace);
      await Promise.all([page.close(), discordFront.close(), discord.close(), smtp.close()]);
      await database.drop();
      await Promise.all([nats?.close(), postgres?.close()]);
    },
  };
}

/** The services leave their namespaced streams in place; the rig's own go with it. */
async function deleteStreams(natsUrl: string, namespace: string): Promise<void> {
  const bus = await createJetStreamBus({ servers: natsUrl });
  try {
    for (const { name } of Object.values(streams)) {
      if (await bus.hasStream(`${namespace}_${name}`)) await bus.deleteStream(`${namespace}_${name}`);
    }
  } finally {
    await bus.close();
  }
}

/**
 * Starts the rig before the file's tests and closes it after them; the returned function gives
 * the running rig inside a test. `options` is read when the rig starts, so it may use what an
 * earlier beforeAll set up (a trace collector, a filings stand-in).
 */
export function useSystemRig(name: string, options: () => SystemRigOptions = () => ({})): () => SystemRig {
  let rig: SystemRig | undefined;
  beforeAll(async () => {
    rig = await startSystemRig(name, options());
  }, 180_000);
  afterAll(async () => {
    await rig?.close();
  });
  return () => {
    if (!rig) throw new Error(`the system rig ${name} did not start`);
    return rig;
  };
}
