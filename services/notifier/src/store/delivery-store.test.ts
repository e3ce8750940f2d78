import { type Db, migrate, openDatabase } from '@mimamori/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryStore } from './delivery-store.ts';
import { NOTIFIER_SCHEMA, notifierMigrations } from './migrations.ts';
import { sweepNotifier } from './retention.ts';

// The single-process product runs the same SQL on the embedded database (PGlite).
let db: Db;

// Opening PGlite (a WebAssembly PostgreSQL) took over 10 s while the suite's other files loaded
// both cores.
beforeAll(async () => {
  db = await openDatabase('pglite:memory');
  await migrate(db, NOTIFIER_SCHEMA, notifierMigrations);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe('the delivery ledger on the embedded database', () => {
  it('claims, holds, releases and records deliveries', async () => {
    const ledger = createDeliveryStore(db, { claimMs: 60_000 });
    const first = await ledger.claim('update:u1:email', 'email');
    expect(first.kind).toBe('send');
    const second = await ledger.claim('update:u1:email', 'email');
    expect(second.kind).toBe('held');
    if (first.kind !== 'send') return;
    await ledger.release('update:u1:email', first.token);
    const third = await ledger.claim('update:u1:email', 'email');
    expect(third.kind).toBe('send');
    await ledger.markSent('update:u1:email');
    expect((await ledger.claim('update:u1:email', 'email')).kind).toBe('already_sent');

    expect((await ledger.claim('update:u1:discord', 'discord')).kind).toBe('send');
    await ledger.markGivenUp('update:u1:discord');
    expect((await ledger.claim('update:u1:discord', 'discord')).kind).toBe('given_up');
  });

  it('sweeps what is past the retention', async () => {
    await db.query(
      `INSERT INTO notifier.deliveries (id, channel, status, attempts, created_at)
       VALUES ('old', 'email', 'sent', 1, now() - interval '40 days')`,
    );
    expect(await sweepNotifier(db, 30 * 86_400_000)).toEqual({ deliveries: 1, errorStreaks: 0 });
    const { rows } = await db.query<{ id: string }>('SELECT id FROM notifier.deliveries ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(['update:u1:discord', 'update:u1:email']);
  });
});
