import { resolve } from 'node:path';
import { keptSecretKeys } from '@mimamori/secret-box';
import pg from 'pg';
import { launchCluster } from './cluster/launch-cluster.ts';

// Runs every service as its own process against real PostgreSQL and NATS JetStream:
//   DATABASE_URL (default postgres://postgres@127.0.0.1:5432/mimamori, created when missing)
//   NATS_URL     (default nats://127.0.0.1:4222)
//   SMTP_URL     (default: a local mailbox in .data/cluster-mailbox)
//   HTTP_PORT    (default 8080)
//   SECRET_KEYS  (default: a key made on first run and kept in .data/cluster-secret-keys)
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/mimamori';
await ensureDatabase(databaseUrl);

const cluster = await launchCluster({
  databaseUrl,
  natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  smtpUrl: process.env.SMTP_URL ?? `mailbox:${resolve('.data/cluster-mailbox')}`,
  httpPort: Number(process.env.HTTP_PORT ?? 8080),
  secretKeys: process.env.SECRET_KEYS ?? (await keptSecretKeys(resolve('.data/cluster-secret-keys'))),
  onLine: (service, line) => console.log(`${service.padEnd(9)} | ${line}`),
});
console.log(`Mimamori (cluster mode) is running at ${cluster.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    const exits = await cluster.stop();
    const failed = [...exits].filter(([, code]) => code !== 0);
    process.exit(failed.length === 0 ? 0 : 1);
  });
}

async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
