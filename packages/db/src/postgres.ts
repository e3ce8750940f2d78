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
  const statements = preparedNames();
  const send = async (client: pg.Pool | pg.PoolClient, text: string, params?: unknown[]) => {
    const name = params?.length ? statements.nameOf(text) : undefined;
    try {
      return await client.query(name ? { name, text, values: params } : { text, values: params });
    } catch (error) {
      if (!name || !isStalePlan(error)) throw error;
      // Prepared before a migration changed the table's shape: from now on the text goes under a
      // new name, prepared afresh on each connection. Outside a transaction it is asked again at
      // once; a transaction has failed and is retried by its caller (its event is redelivered).
      statements.renew(text);
      if (client !== pool) throw error;
      return client.query({ name: statements.nameOf(text), text, values: params });
    }
  };
  const run = async <Row>(client: pg.Pool | pg.PoolClient, text: string, params?: unknown[]) => {
    const result = await send(client, text, params);
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

/** Statements prepared on a connection at most; texts beyond these are sent unnamed. */
const MAX_PREPARED = 500;

/**
 * Names for the parameterised statements a service sends, so that PostgreSQL parses and plans
 * each once per connection instead of once per query (ADR 0037): a check's statements are the
 * same few texts thousands of times a minute. Texts beyond MAX_PREPARED, built with varying
 * parts, stay unnamed rather than piling up on the server.
 */
function preparedNames() {
  const names = new Map<string, string>();
  let made = 0;
  return {
    nameOf(text: string): string | undefined {
      const known = names.get(text);
      if (known || names.size >= MAX_PREPARED) return known;
      made += 1;
      names.set(text, `m${made}`);
      return `m${made}`;
    },
    renew(text: string): void {
      made += 1;
      names.set(text, `m${made}`);
    },
  };
}

/**
 * A prepared statement whose table changed shape under it (a migration of a newer release while
 * this one runs): PostgreSQL refuses it on that connection from then on.
 */
function isStalePlan(error: unknown): boolean {
  return (
    (error as { code?: string } | null)?.code === '0A000' &&
    /cached plan/.test(String((error as Error).message))
  );
}
