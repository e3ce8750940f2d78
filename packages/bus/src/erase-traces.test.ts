import { type Db, migrate, openPglite } from '@mimamori/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eraseEventTraces } from './erase-traces.ts';
import { processedEventsMigration } from './idempotent-handler.ts';
import { outboxMigration, writeEvent } from './outbox.ts';

const schema = 'shop';
const USER = '6f1c2d3e-0000-4000-8000-000000000001';
const SITE = '6f1c2d3e-0000-4000-8000-0000000000aa';
let db: Db;

// One embedded database for the file (creating one costs a few CPU-seconds); a fresh schema a test.
beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await migrate(db, schema, [outboxMigration(schema), processedEventsMigration(schema)]);
});

const ids = async (table: string, column: string) =>
  (await db.query<{ id: string }>(`SELECT ${column} AS id FROM ${schema}.${table} ORDER BY 1`)).rows.map(
    (row) => row.id,
  );

describe('erasing the event records that name a purged user', () => {
  it('drops outbox rows naming an id in their id or their payload, and consumed records naming one in their id', async () => {
    await db.transaction(async (tx) => {
      await writeEvent(tx, schema, {
        id: `created:${USER}`,
        subject: 'orders.created',
        data: new Uint8Array(),
      });
      // The id only inside the payload, as protobuf carries strings.
      await writeEvent(tx, schema, {
        id: 'e-2',
        subject: 'orders.paid',
        data: new TextEncoder().encode(`\n$${SITE}`),
      });
      await writeEvent(tx, schema, {
        id: 'e-3',
        subject: 'orders.paid',
        data: new TextEncoder().encode('other'),
      });
      for (const eventId of [`checked:${SITE}:2026`, 'checked:other:2026'])
        await tx.query(`INSERT INTO ${schema}.processed_events (consumer, event_id) VALUES ('c', $1)`, [
          eventId,
        ]);
    });
    await db.transaction((tx) => eraseEventTraces(tx, schema, [USER, SITE, '']));
    expect(await ids('outbox', 'id')).toEqual(['e-3']);
    expect(await ids('processed_events', 'event_id')).toEqual(['checked:other:2026']);
  });

  it('skips a schema that keeps no such records', async () => {
    await db.transaction((tx) => eraseEventTraces(tx, 'nowhere', [USER]));
  });
});
