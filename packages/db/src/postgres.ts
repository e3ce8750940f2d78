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
  // A server restart ends every idle connection with an error event; unheard, it would crash the
  // process. The pool drops the dead client by itself and the next query connects anew; a server
  // still away shows in the failing queries and in readiness (ping).
  pool.on('error', () => undefined);
  // The same for a connection cut while checked out between two queries (a transaction waiting
  // on its handler): the next query on it fails and the transaction rolls back.
  pool.on('connect', (client) => client.on('error', () => undefined));
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
      let broken: Error | undefined;
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
        // A connection that cannot even roll back (cut by a restart) is not handed out again.
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
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
