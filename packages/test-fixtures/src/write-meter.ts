import type { Db } from '@mimamori/db';

/**
 * What the product writes to PostgreSQL, row by row, as a test or bench reads it (ADR 0032):
 *
 * - rows: row versions written, each INSERT, UPDATE and DELETE of one row counting one — what
 *   pg_stat_user_tables adds up as n_tup_ins + n_tup_upd + n_tup_del;
 * - bytes: the size of each row version written (`pg_column_size` of the new row: tuple header
 *   and data, TOASTed values as their pointers), 0 for a delete — what the heap grows by before
 *   vacuum, without index entries or WAL.
 *
 * Not WAL bytes: the PostgreSQL server is shared by every test database on the machine, so its
 * WAL position moves with other runs' writes, and full-page images make the figure depend on
 * when the last checkpoint was. Not pg_stat deltas either: a backend reports its counters up to
 * 10 s late, where a row trigger counts in the writing transaction itself (a rolled-back write
 * leaves no count). Every table of the given schemas gets an AFTER ROW trigger that appends one
 * row to an unlogged table of a schema of the meter's own, which is not counted.
 */
export interface WriteMeter {
  /** Forgets what was counted so far (in the given transaction-less moment). */
  reset(): Promise<void>;
  /** What was written since the last reset, with `extra` read in the same snapshot. */
  read<T = undefined>(extraSql?: string): Promise<WriteReading & { extra: T | undefined }>;
  /** Drops the triggers and the meter's schema. */
  remove(): Promise<void>;
}

export interface WriteReading {
  rows: number;
  bytes: number;
  /** Per table (`schema.table`): rows and bytes. */
  byTable: Record<string, { rows: number; bytes: number }>;
}

const METER = 'write_meter';

/** Installs the meter on every table of `schemas` that exists now. */
export async function installWriteMeter(db: Db, schemas: readonly string[]): Promise<WriteMeter> {
  await db.query(`
    CREATE SCHEMA IF NOT EXISTS ${METER};
    CREATE UNLOGGED TABLE IF NOT EXISTS ${METER}.writes (tbl text NOT NULL, op text NOT NULL, bytes integer NOT NULL);
    CREATE OR REPLACE FUNCTION ${METER}.count_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${METER}.writes VALUES (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, TG_OP,
        CASE WHEN TG_OP = 'DELETE' THEN 0 ELSE pg_column_size(NEW) END);
      RETURN NULL;
    END $$;
  `);
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = ANY($1)`,
    [[...schemas]],
  );
  for (const { name } of tables) {
    await db.query(`DROP TRIGGER IF EXISTS write_meter ON ${name}`);
    await db.query(
      `CREATE TRIGGER write_meter AFTER INSERT OR UPDATE OR DELETE ON ${name}
         FOR EACH ROW EXECUTE FUNCTION ${METER}.count_write()`,
    );
  }
  return {
    async reset() {
      await db.query(`TRUNCATE ${METER}.writes`);
    },
    async read<T>(extraSql?: string) {
      // One statement, one snapshot: the writes and whatever the caller counts beside them.
      const { rows } = await db.query<{ tbl: string; rows: number; bytes: number; extra: T | null }>(
        `SELECT w.tbl, w.rows, w.bytes, ${extraSql ? `(${extraSql})` : 'NULL'} AS extra
           FROM (SELECT NULL::text AS tbl, 0 AS rows, 0 AS bytes
                 UNION ALL
                 SELECT tbl, count(*)::int, sum(bytes)::int FROM ${METER}.writes GROUP BY tbl) w`,
      );
      const byTable: WriteReading['byTable'] = {};
      for (const row of rows) if (row.tbl) byTable[row.tbl] = { rows: row.rows, bytes: row.bytes };
      const values = Object.values(byTable);
      return {
        rows: values.reduce((sum, table) => sum + table.rows, 0),
        bytes: values.reduce((sum, table) => sum + table.bytes, 0),
        byTable,
        extra: rows[0]?.extra ?? undefined,
      };
    },
    async remove() {
      for (const { name } of tables) await db.query(`DROP TRIGGER IF EXISTS write_meter ON ${name}`);
      await db.query(`DROP SCHEMA IF EXISTS ${METER} CASCADE`);
    },
  };
}

/** The schemas the services own in a product database (everything but PostgreSQL's and the meter's). */
export async function serviceSchemas(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace
      WHERE nspname NOT IN ('public', 'information_schema', $1) AND nspname NOT LIKE 'pg\\_%'`,
    [METER],
  );
  return rows.map((row) => row.name);
}
