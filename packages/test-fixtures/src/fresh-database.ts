import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testDatabaseUrl } from './server-urls.ts';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file, on the real server. Service schemas have fixed
 * names (account, notifier, …), so parallel test files cannot share one database.
 */
export async function createFreshDatabase(serverUrl = testDatabaseUrl()): Promise<FreshDatabase> {
  const name = `mimamori_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        // A pool's close resolves while its sockets are still closing; dropping the database
        // under them would kill them mid-close (errors in the test's log), so wait a little first.
        for (let attempt = 0; attempt < 100; attempt++) {
          const { rows } = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
