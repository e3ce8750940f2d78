import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** A database as the scan reads it: PGlite in the single-process product, PostgreSQL in the cluster. */
export interface Queryable {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/** Every service's schema: whatever a service keeps, it keeps here. */
export const SERVICE_SCHEMAS = ['account', 'target', 'scheduler', 'crawler', 'diff', 'notifier', 'filings'];

/**
 * Every row of every table in the services' schemas that names one of `needles` (a user id, site
 * ids, an address), as `schema.table: count`. Text columns are searched as the row's text; bytea
 * columns (event payloads) byte by byte, as protobuf carries strings as UTF-8.
 */
export async function rowsNaming(db: Queryable, needles: readonly string[]): Promise<string[]> {
  const { rows: columns } = await db.query<{
    table_schema: string;
    table_name: string;
    column_name: string;
    data_type: string;
  }>(
    `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = ANY($1::text[]) AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_schema, c.table_name, c.ordinal_position`,
    [SERVICE_SCHEMAS],
  );
  const tables = new Map<string, string[]>();
  for (const column of columns) {
    const table = `"${column.table_schema}"."${column.table_name}"`;
    const list = tables.get(table) ?? [];
    if (column.data_type === 'bytea') list.push(`"${column.column_name}"`);
    tables.set(table, list);
  }
  const found: string[] = [];
  for (const [table, byteColumns] of tables) {
    const inBytes = byteColumns.map((column) => `position(convert_to(n.id, 'UTF8') in t.${column}) > 0`);
    const { rows } = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${table} t
        WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS n(id)
                       WHERE position(n.id in t::text) > 0 ${inBytes.map((test) => `OR ${test}`).join(' ')})`,
      [needles],
    );
    if ((rows[0]?.count ?? 0) > 0) found.push(`${table.replaceAll('"', '')}: ${rows[0]?.count}`);
  }
  return found;
}

/** The tables the scan reads, so a test can check it read the services' tables at all. */
export async function scannedTables(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_schema = ANY($1::text[]) AND table_type = 'BASE TABLE' ORDER BY 1`,
    [SERVICE_SCHEMAS],
  );
  return rows.map((row) => row.name);
}

/** Every file under the blob folder whose path names one of `needles`. */
export async function blobFilesNaming(blobDir: string, needles: readonly string[]): Promise<string[]> {
  const entries = await readdir(blobDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(blobDir, join(entry.parentPath, entry.name)))
    .filter((path) => needles.some((needle) => path.includes(needle)));
}
