import { randomBytes } from 'node:crypto';
import { type Db, migrate, openPostgres } from '@mimamori/db';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BusMessage, EventBus } from './event-bus.ts';
import { idempotent, processedEventsMigration } from './idempotent-handler.ts';
import { createJetStreamBus } from './jetstream-bus.ts';
import { outboxMigration, writeEvent } from './outbox.ts';
import { createOutboxRelay, type OutboxRelay } from './outbox-relay.ts';

const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const servers = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const encoder = new TextEncoder();

let db: Db;
let bus: EventBus;
let schema: string;
let stream: string;
let subject: string;
let relays: OutboxRelay[];
let pools: Db[];

beforeEach(async () => {
  const suffix = randomBytes(5).toString('hex');
  schema = `outbox_${suffix}`;
  stream = `OUTBOX_${suffix}`;
  subject = `outbox_${suffix}.placed`;
  db = openPostgres(databaseUrl);
  pools = [db];
  relays = [];
  await migrate(db, schema, [
    outboxMigration(schema),
    processedEventsMigration(schema),
    {
      version: 1,
      name: 'tallies',
      sql: 'CREATE TABLE tallies (event_id text NOT NULL, amount integer NOT NULL)',
    },
  ]);
  bus = await createJetStreamBus({ servers, retryDelay: () => 100 });
  await bus.declareStreams([{ name: stream, subjects: [`outbox_${suffix}.>`] }]);
});

afterEach(async () => {
  await Promise.all(relays.map((relay) => relay.stop()));
  await bus.deleteStream(stream);
  await bus.close();
  await db.query(`DROP SCHEMA ${schema} CASCADE`);
  await Promise.all(pools.map((pool) => pool.close()));
});

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function startRelay(onDb = db, onBus = bus, batchSize = 100) {
  const relay = createOutboxRelay({ db: onDb, schema, bus: onBus, pollMs: 50, batchSize });
  relays.push(relay);
  relay.start();
  return relay;
}

const place = (id: string, amount: number) =>
  db.transaction((tx) => writeEvent(tx, schema, { id, subject, data: encoder.encode(String(amount)) }));

const unpublished = async () =>
  (await db.query(`SELECT 1 FROM ${schema}.outbox WHERE published_at IS NULL`)).rowCount;

/** An idempotent consumer adding each event's amount to `tallies`. */
async function consumeTallies() {
  const deliveries: BusMessage[] = [];
  await bus.consume(
    { stream, durable: 'tally', ackWaitMs: 2_000, maxDeliver: 5 },
    idempotent(db, schema, 'tally', async (message, tx) => {
      deliveries.push(message);
      await tx.query(`INSERT INTO ${schema}.tallies (event_id, amount) VALUES ($1, $2)`, [
        message.msgId,
        Number(new TextDecoder().decode(message.data)),
      ]);
    }),
  );
  return deliveries;
}

const tallies = async () =>
  (
    await db.query<{ event_id: string; amount: number }>(
      `SELECT event_id, amount FROM ${schema}.tallies ORDER BY event_id`,
    )
  ).rows;

describe('transactional outbox on PostgreSQL and JetStream', () => {
  it('never publishes an event whose transaction rolled back, and publishes a committed one with its id', async () => {
    const seen: BusMessage[] = [];
    await bus.consume({ stream, durable: 'reader', ackWaitMs: 2_000, maxDeliver: 3 }, async (message) => {
      seen.push(message);
    });
    await expect(
      db.transaction(async (tx) => {
        await writeEvent(tx, schema, { id: 'placed:rolled-back', subject, data: encoder.encode('1') });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await db.transaction((tx) =>
      writeEvent(tx, schema, {
        id: 'placed:1',
        subject,
        data: encoder.encode('1'),
        headers: { 'x-tenant': 'a' },
      }),
    );
    const relay = startRelay();
    relay.kick();
    await waitUntil(() => seen.length >= 1, 'the committed event');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.map((message) => message.msgId)).toEqual(['placed:1']);
    expect(seen[0]?.headers['x-tenant']).toBe('a');
    expect(await unpublished()).toBe(0);
  });

  it('delivers exactly once when a relay published but died before marking the row', async () => {
    const deliveries = await consumeTallies();
    await place('placed:crash', 7);
    // What the dead relay managed: the publish, not the update.
    await bus.publish(subject, encoder.encode('7'), { msgId: 'placed:crash' });
    await waitUntil(async () => (await tallies()).length === 1, 'the first delivery');
    startRelay();
    await waitUntil(async () => (await unpublished()) === 0, 'the new relay');
    await place('placed:marker', 1);
    await waitUntil(async () => (await tallies()).length === 2, 'the marker');
    expect(await tallies()).toEqual([
      { event_id: 'placed:crash', amount: 7 },
      { event_id: 'placed:marker', amount: 1 },
    ]);
    expect(deliveries.filter((message) => message.msgId === 'placed:crash')).toHaveLength(1);
  });

  it('delivers an event committed before its relay died once a new relay starts', async () => {
    await consumeTallies();
    await place('placed:waiting', 3);
    startRelay();
    await waitUntil(async () => (await tallies()).length === 1, 'the event');
    expect(await tallies()).toEqual([{ event_id: 'placed:waiting', amount: 3 }]);
  });

  it('applies an event once when the idempotent consumer gets it twice, even at the same time', async () => {
    const handler = idempotent(db, schema, 'tally', async (message, tx) => {
      await tx.query(`INSERT INTO ${schema}.tallies (event_id, amount) VALUES ($1, 4)`, [message.msgId]);
    });
    const delivery: BusMessage = {
      subject,
      data: encoder.encode('4'),
      msgId: 'placed:twice',
      headers: {},
      deliveryCount: 1,
      ack: () => undefined,
      nak: () => undefined,
      term: () => undefined,
      working: () => undefined,
    };
    await Promise.all([handler(delivery), handler({ ...delivery, deliveryCount: 2 })]);
    await handler({ ...delivery, deliveryCount: 3 });
    expect(await tallies()).toEqual([{ event_id: 'placed:twice', amount: 4 }]);
  });

  it('lets two relays run at once, each event published once', async () => {
    const publishedBy = [new Map<string, number>(), new Map<string, number>()];
    const counting = (counts: Map<string, number>): EventBus => ({
      ...bus,
      publish: (subjectName, data, options) => {
        counts.set(options.msgId, (counts.get(options.msgId) ?? 0) + 1);
        return bus.publish(subjectName, data, options);
      },
    });
    const ids = Array.from({ length: 60 }, (_, i) => `placed:${String(i).padStart(2, '0')}`);
    for (const id of ids) await place(id, 1);
    const second = openPostgres(databaseUrl);
    pools.push(second);
    const deliveries = await consumeTallies();
    startRelay(db, counting(publishedBy[0] as Map<string, number>), 5);
    startRelay(second, counting(publishedBy[1] as Map<string, number>), 5);
    await waitUntil(async () => (await tallies()).length === ids.length, 'every event');

    const all = [...(publishedBy[0]?.entries() ?? []), ...(publishedBy[1]?.entries() ?? [])];
    expect(all.map(([id]) => id).sort()).toEqual(ids);
    expect(all.every(([, times]) => times === 1)).toBe(true);
    expect(new Set(deliveries.map((message) => message.msgId)).size).toBe(deliveries.length);
  });
});
