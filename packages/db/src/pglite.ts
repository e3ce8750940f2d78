import { PGlite } from '@electric-sql/pglite';
import type { Db, QueryResult, Sql } from './db.ts';

/**
 * An embedded PostgreSQL (compiled to WASM) in a data folder, for the single-process mode.
 * `dataDir` undefined keeps it in memory (tests).
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  const pglite = await PGlite.create(dataDir ? { dataDir } : {});
  const run = async <Row>(client: Pick<PGlite, 'query'>, text: string, params?: unknown[]) => {
    const result = await client.query<Row>(text, params);
    // PGlite counts only changed rows (a SELECT says 0); PostgreSQL's rowCount also counts the
    // rows a SELECT or RETURNING answers, which callers test to learn whether anything matched.
    return {
      rows: result.rows,
      rowCount: Math.max(result.affectedRows ?? 0, result.rows.length),
    } satisfies QueryResult<Row>;
  };
  return {
    query: (text, params) => run(pglite, text, params),
    exec: async (script) => {
      await pglite.exec(script);
    },
    transaction: (work) =>
      pglite.transaction(async (client) => {
        const tx: Sql = {
          query: (text, params) => run(client, text, params),
          exec: async (script) => {
            await client.exec(script);
          },
        };
        return work(tx);
      }),
    async ping() {
      try {
        await pglite.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => pglite.close(),
  };
}
