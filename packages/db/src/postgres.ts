import pg from 'pg';
import type { Db, QueryResult, Sql } from './db.ts';

// Timestamps and bigints come back as strings; services convert where they need to.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** A pool against a real PostgreSQL server (cluster mode and integration tests). */
export function openPostgres(url: string, options: { max?: number; applicationName?: string } = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'mimamori',
  });
  const run = async <Row>(client: pg.Pool | pg.PoolClient, text: string, params?: unknown[]) => {
    const result = await client.query(text, params as unknown[]);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 } satisfies QueryResult<Row>;
  };
  return {
    query: (text, params) => run(pool, text, params),
    exec: async (script) => {
      await pool.query(script);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Sql = {
          query: (text, params) => run(client, text, params),
          exec: async (script) => {
            await client.query(script);
          },
        };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}
