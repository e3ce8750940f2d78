// What one check leaves behind, for the capacity model in docs/operations.md: PostgreSQL
// transactions, rows written and bytes grown (from the database's own statistics), blob bytes, and
// JetStream messages by subject. Imported by pipeline.bench.ts, which measures a round of checks
// between two readings.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventBus } from '@mimamori/bus';
import type { Db } from '@mimamori/db';

/**
 * PostgreSQL 15 sends a backend's statistics at most once a second while busy and otherwise
 * after up to 10 s idle (PGSTAT_IDLE_INTERVAL); a reading waits that out so every write of the
 * round is counted.
 */
const STATS_SETTLE_MS = 11_000;

export interface Reading {
  commits: number;
  rowsWritten: number;
  rowsInserted: number;
  databaseBytes: number;
  relationBytes: number;
  insertedByTable: Record<string, number>;
  bytesByTable: Record<string, number>;
  blobBytes: number;
  blobs: number;
  published: Record<string, { messages: number; bytes: number }>;
}

/** Counts what every service publishes through the shared bus, by subject. */
export function countingBus(bus: EventBus): EventBus & {
  published(): Record<string, { messages: number; bytes: number }>;
} {
  const counts = new Map<string, { messages: number; bytes: number }>();
  return {
    declareStreams: (specs) => bus.declareStreams(specs),
    consume: (spec, handler) => bus.consume(spec, handler),
    hasStream: (name) => bus.hasStream(name),
    deleteStream: (name) => bus.deleteStream(name),
    close: () => bus.close(),
    async publish(subject, data, options) {
      const ack = await bus.publish(subject, data, options);
      if (!ack.duplicate) {
        const count = counts.get(subject) ?? { messages: 0, bytes: 0 };
        count.messages += 1;
        count.bytes += data.byteLength;
        counts.set(subject, count);
      }
      return ack;
    },
    published: () => Object.fromEntries([...counts].map(([subject, count]) => [subject, { ...count }])),
  };
}

export async function takeReading(
  db: Db,
  blobDir: string,
  bus: { published(): Reading['published'] },
): Promise<Reading> {
  await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
  const { rows: database } = await db.query<{
    commits: string;
    written: string;
    inserted: string;
    bytes: string;
  }>(
    `SELECT xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS written,
            tup_inserted AS inserted, pg_database_size(datname) AS bytes
       FROM pg_stat_database WHERE datname = current_database()`,
  );
  const { rows: tables } = await db.query<{ name: string; inserted: string; bytes: string }>(
    `SELECT schemaname || '.' || relname AS name, n_tup_ins AS inserted,
            pg_total_relation_size(relid) AS bytes
       FROM pg_stat_user_tables`,
  );
  const row = database[0];
  if (!row) throw new Error('no statistics for the bench database');
  return {
    commits: Number(row.commits),
    rowsWritten: Number(row.written),
    rowsInserted: Number(row.inserted),
    databaseBytes: Number(row.bytes),
    relationBytes: tables.reduce((sum, table) => sum + Number(table.bytes), 0),
    insertedByTable: Object.fromEntries(tables.map((table) => [table.name, Number(table.inserted)])),
    bytesByTable: Object.fromEntries(tables.map((table) => [table.name, Number(table.bytes)])),
    ...(await folderSize(blobDir)),
    published: bus.published(),
  };
}

/** Per check between two readings; bytes rounded to whole bytes, the rest to two decimals. */
export function perCheck(before: Reading, after: Reading, checks: number) {
  const each = (value: number) => Math.round((value / checks) * 100) / 100;
  const insertedByTable: Record<string, number> = {};
  for (const [table, inserted] of Object.entries(after.insertedByTable)) {
    const added = inserted - (before.insertedByTable[table] ?? 0);
    if (added > 0) insertedByTable[table] = each(added);
  }
  // What each table grew by: which growth the retention sweeps take back and which stays.
  const bytesByTable: Record<string, number> = {};
  for (const [table, bytes] of Object.entries(after.bytesByTable)) {
    const grown = bytes - (before.bytesByTable[table] ?? 0);
    if (grown > 0) bytesByTable[table] = Math.round(grown / checks);
  }
  const messagesBySubject: Record<string, number> = {};
  let messages = 0;
  let messageBytes = 0;
  for (const [subject, count] of Object.entries(after.published)) {
    const added = count.messages - (before.published[subject]?.messages ?? 0);
    if (added <= 0) continue;
    messagesBySubject[subject] = each(added);
    messages += added;
    messageBytes += count.bytes - (before.published[subject]?.bytes ?? 0);
  }
  return {
    checks,
    pg_commits: each(after.commits - before.commits),
    pg_rows_written: each(after.rowsWritten - before.rowsWritten),
    pg_rows_inserted: each(after.rowsInserted - before.rowsInserted),
    pg_rows_inserted_by_table: insertedByTable,
    pg_relation_bytes: Math.round((after.relationBytes - before.relationBytes) / checks),
    pg_relation_bytes_by_table: bytesByTable,
    pg_database_bytes: Math.round((after.databaseBytes - before.databaseBytes) / checks),
    blob_bytes: Math.round((after.blobBytes - before.blobBytes) / checks),
    blobs: each(after.blobs - before.blobs),
    jetstream_messages: each(messages),
    jetstream_bytes: Math.round(messageBytes / checks),
    jetstream_messages_by_subject: messagesBySubject,
  };
}

async function folderSize(folder: string): Promise<{ blobBytes: number; blobs: number }> {
  let blobBytes = 0;
  let blobs = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    // The file store keeps each blob's content type beside it under .types/: not a blob.
    if (!entry.isFile() || entry.parentPath.startsWith(join(folder, '.types'))) continue;
    blobBytes += (await stat(join(entry.parentPath, entry.name))).size;
    blobs += 1;
  }
  return { blobBytes, blobs };
}
