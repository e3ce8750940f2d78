import { type Db, migrate, openDatabase } from '@mimamori/db';
import { createMetrics } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedDeliveries } from './delivery-metrics.ts';
import { createDeliveryStore } from './store/delivery-store.ts';
import { NOTIFIER_SCHEMA, notifierMigrations } from './store/migrations.ts';

// The real ledger on the embedded database, counted.
let db: Db;

// Starting PGlite takes seconds on a busy machine.
beforeAll(async () => {
  db = await openDatabase('pglite:memory');
  await migrate(db, NOTIFIER_SCHEMA, notifierMigrations);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe('countedDeliveries', () => {
  it('counts each send once by channel and result, and nothing for a delivery it did not send', async () => {
    const metrics = createMetrics({ service: 'notifier-test' });
    const ledger = countedDeliveries(createDeliveryStore(db, { claimMs: 60_000 }), metrics);

    const mail = await ledger.claim('update:u1:email', 'email');
    if (mail.kind !== 'send') throw new Error(`expected to send, got ${mail.kind}`);
    await ledger.release('update:u1:email', mail.token);
    const again = await ledger.claim('update:u1:email', 'email');
    if (again.kind !== 'send') throw new Error(`expected to send, got ${again.kind}`);
    await ledger.markSent('update:u1:email');
    // Sent before: another copy of the event sends nothing and counts nothing.
    expect((await ledger.claim('update:u1:email', 'email')).kind).toBe('already_sent');

    const discord = await ledger.claim('update:u1:discord', 'discord');
    if (discord.kind !== 'send') throw new Error(`expected to send, got ${discord.kind}`);
    await ledger.markGivenUp('update:u1:discord');

    const counted = await metrics.registry.getSingleMetric('mimamori_deliveries_total')?.get();
    const values = Object.fromEntries(
      (counted?.values ?? []).map(({ labels, value }) => [`${labels.channel} ${labels.result}`, value]),
    );
    expect(values).toEqual({ 'email failed': 1, 'email sent': 1, 'discord refused': 1 });
  });
});
