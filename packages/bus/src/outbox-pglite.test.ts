import { type Db, migrate, openPglite } from '@mimamori/db';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BusMessage, EventBus } from './event-bus.ts';
import { idempotent, processedEventsMigration } from './idempotent-handler.ts';
import { createInProcessBus } from './in-process-bus.ts';
import { outboxMigration, writeEvent } from './outbox.ts';
import { createOutboxRelay, type OutboxRelay } from './outbox-relay.ts';

// The single-process mode: PGlite and the in-process bus, with the same outbox and
// idempotent consumers as the cluster.
const schema = 'shop';
const encoder = new TextEncoder();
let db: Db;
let bus: EventBus;
let relay: OutboxRelay;

// One embedded database for the file: creating one (initdb in WebAssembly) cost a few CPU-seconds,
// each test's own took 26 s a CI run. Each test still starts on a fresh schema.
beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await migrate(db, schema, [
    outboxMigration(schema),
    processedEventsMigration(schema),
    { version: 1, name: 'tallies', sql: 'CREATE TABLE tallies (event_id text, amount integer NOT NULL)' },
  ]);
  bus = createInProcessBus({ retryDelay: () => 50 });
  await bus.declareStreams([{ name: 'ORDERS', subjects: ['orders.>'] }]);
  relay = createOutboxRelay({ db, schema, bus, pollMs: 50 });
});

afterEach(async () => {
  await relay.stop();
  await bus.close();
});

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function tallyHandler() {
  return idempotent(db, schema, 'tally', async (message, tx) => {
    await tx.query(`INSERT INTO ${schema}.tallies (event_id, amount) VALUES ($1, $2)`, [
      message.msgId,
      Number(new TextDecoder().decode(message.data)),
    ]);
  });
}

const tallies = async () =>
  (
    await db.query<{ event_id: string; amount: number }>(
      `SELECT event_id, amount FROM ${schema}.tallies ORDER BY amount`,
    )
  ).rows;

describe('outbox and idempotent consumer on PGlite with the in-process bus', () => {
  it('publishes committed events in the order written, and never a rolled-back one', async () => {
    const seen: string[] = [];
    await bus.consume(
      { stream: 'ORDERS', durable: 'reader', ackWaitMs: 1_000, maxDeliver: 3 },
      async (message) => {
        seen.push(message.msgId);
      },
    );
    await db.transaction(async (tx) => {
      await writeEvent(tx, schema, {
        id: 'order-placed:1',
        subject: 'orders.placed',
        data: encoder.encode('1'),
      });
      await writeEvent(tx, schema, {
        id: 'order-placed:2',
        subject: 'orders.placed',
        data: encoder.encode('2'),
      });
    });
    await expect(
      db.transaction(async (tx) => {
        await writeEvent(tx, schema, {
          id: 'order-placed:rolled-back',
          subject: 'orders.placed',
          data: encoder.encode('9'),
        });
        throw new Error('the order was refused');
      }),
    ).rejects.toThrow('refused');
    await db.transaction((tx) =>
      writeEvent(tx, schema, { id: 'order-placed:3', subject: 'orders.placed', data: encoder.encode('3') }),
    );
    relay.start();
    await waitUntil(() => seen.length >= 3, 'three events');
    expect(seen).toEqual(['order-placed:1', 'order-placed:2', 'order-placed:3']);
    const { rows } = await db.query(`SELECT id FROM ${schema}.outbox WHERE published_at IS NULL`);
    expect(rows).toEqual([]);
  });

  it('gives a random event id when none is given', async () => {
    const id = await db.transaction((tx) =>
      writeEvent(tx, schema, { subject: 'orders.placed', data: encoder.encode('1') }),
    );
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('applies an event once even when it is delivered twice', async () => {
    const handler = tallyHandler();
    const delivery: BusMessage = {
      subject: 'orders.placed',
      data: encoder.encode('5'),
      msgId: 'order-placed:5',
      headers: {},
      deliveryCount: 1,
      ack: () => undefined,
      nak: () => undefined,
      term: () => undefined,
      working: () => undefined,
    };
    await handler(delivery);
    await handler({ ...delivery, deliveryCount: 2 });
    expect(await tallies()).toEqual([{ event_id: 'order-placed:5', amount: 5 }]);
  });

  it('keeps nothing of a delivery that failed, so the redelivery applies it', async () => {
    let attempts = 0;
    const handler = idempotent(db, schema, 'flaky', async (message, tx) => {
      attempts++;
      await tx.query(`INSERT INTO ${schema}.tallies (event_id, amount) VALUES ($1, 1)`, [message.msgId]);
      if (attempts === 1) throw new Error('mail server down');
    });
    await bus.consume({ stream: 'ORDERS', durable: 'flaky', ackWaitMs: 1_000, maxDeliver: 3 }, handler);
    await bus.publish('orders.placed', encoder.encode('1'), { msgId: 'order-placed:flaky' });
    await waitUntil(() => attempts === 2, 'the redelivery');
    await waitUntil(async () => (await tallies()).length > 0, 'the tally');
    expect(await tallies()).toEqual([{ event_id: 'order-placed:flaky', amount: 1 }]);
  });

  it('rolls back the work of a handler that naks', async () => {
    let attempts = 0;
    const handler = idempotent(db, schema, 'nakker', async (message, tx) => {
      attempts++;
      await tx.query(`INSERT INTO ${schema}.tallies (event_id, amount) VALUES ($1, $2)`, [
        message.msgId,
        attempts,
      ]);
      if (attempts === 1) message.nak(10);
    });
    await bus.consume({ stream: 'ORDERS', durable: 'nakker', ackWaitMs: 1_000, maxDeliver: 3 }, handler);
    await bus.publish('orders.placed', encoder.encode('1'), { msgId: 'order-placed:nak' });
    await waitUntil(() => attempts === 2, 'the redelivery');
    await waitUntil(async () => (await tallies()).length > 0, 'the tally');
    expect(await tallies()).toEqual([{ event_id: 'order-placed:nak', amount: 2 }]);
  });

  it('delivers an outbox event through the relay to an idempotent consumer exactly once, even when relayed twice', async () => {
    await bus.consume(
      { stream: 'ORDERS', durable: 'tally', ackWaitMs: 1_000, maxDeliver: 3 },
      tallyHandler(),
    );
    await db.transaction((tx) =>
      writeEvent(tx, schema, { id: 'order-placed:7', subject: 'orders.placed', data: encoder.encode('7') }),
    );
    // A relay that published and died before marking the row.
    await bus.publish('orders.placed', encoder.encode('7'), { msgId: 'order-placed:7' });
    relay.start();
    await waitUntil(
      async () =>
        (await db.query(`SELECT 1 FROM ${schema}.outbox WHERE published_at IS NULL`)).rowCount === 0,
      'the relay',
    );
    await waitUntil(async () => (await tallies()).length > 0, 'the tally');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await tallies()).toEqual([{ event_id: 'order-placed:7', amount: 7 }]);
  });
});
