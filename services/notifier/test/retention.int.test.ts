import { createInProcessBus, processedEventsMigration } from '@mimamori/bus';
import { type Db, openPostgres } from '@mimamori/db';
import { openMailTransport } from '@mimamori/mail';
import { createLogger, createShutdown, type Shutdown } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { createFreshDatabase, type FreshDatabase } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotifierService } from '../src/service.ts';

const logger = createLogger({ service: 'retention-test', level: 'silent' });
const DAY_MS = 86_400_000;

let database: FreshDatabase;
let db: Db;
let shutdown: Shutdown;

beforeAll(async () => {
  database = await createFreshDatabase();
  db = openPostgres(database.url);
  shutdown = createShutdown({ logger, timeoutMs: 5_000 });
  const host = {
    db,
    bus: createInProcessBus(),
    logger,
    shutdown,
    grpc: { host: '127.0.0.1', port: 0 },
    retention: { keepMs: 30 * DAY_MS, everyMs: 200 },
  };
  await runService(
    createNotifierService({
      db,
      logger,
      mail: openMailTransport('mailbox:/tmp/retention-test-mailbox', 'Mimamori <no-reply@mimamori.local>'),
      secretBox: createSecretBox(generateSecretKey('k1')),
      publicUrl: () => 'https://mimamori.example/',
    }),
    host,
  );
  // A service that records the events its consumers applied (as target, scheduler, diff do).
  await runService(
    { name: 'recorder', schema: 'recorder', migrations: [processedEventsMigration('recorder')] },
    host,
  );
});

afterAll(async () => {
  await shutdown?.run('test finished');
  await db?.close();
  await database?.drop();
});

async function ids(sql: string): Promise<string[]> {
  return (await db.query<{ id: string }>(sql)).rows.map((row) => row.id).sort();
}

describe('the retention sweep', () => {
  it('deletes deliveries, error streaks and consumed-event records past the retention, and keeps the rest', async () => {
    await db.query(
      `INSERT INTO notifier.deliveries (id, channel, status, attempts, created_at, claim_token, claimed_until) VALUES
         ('old-sent', 'email', 'sent', 1, now() - interval '31 days', NULL, NULL),
         ('old-given-up', 'discord', 'given_up', 3, now() - interval '40 days', NULL, NULL),
         ('old-but-sending-now', 'email', 'sending', 9, now() - interval '31 days', 'token', now() + interval '1 minute'),
         ('recent-sent', 'email', 'sent', 1, now() - interval '29 days', NULL, NULL),
         ('recent-sending', 'discord', 'sending', 1, now(), 'token', now() + interval '1 minute')`,
    );
    await db.query(
      `INSERT INTO notifier.error_streaks (target_id, errors, started_at, last_due_at) VALUES
         ('site-checked-long-ago', 3, now() - interval '60 days', now() - interval '31 days'),
         ('site-failing-now', 2, now() - interval '2 minutes', now() - interval '1 minute')`,
    );
    await db.query(
      `INSERT INTO recorder.processed_events (consumer, event_id, processed_at) VALUES
         ('c', 'old', now() - interval '31 days'), ('c', 'recent', now() - interval '1 day')`,
    );

    const deadline = Date.now() + 30_000;
    let left: string[][] = [];
    while (Date.now() < deadline) {
      left = [
        await ids('SELECT id FROM notifier.deliveries'),
        await ids('SELECT target_id AS id FROM notifier.error_streaks'),
        await ids('SELECT event_id AS id FROM recorder.processed_events'),
      ];
      if (left.flat().length === 5) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(left).toEqual([
      ['old-but-sending-now', 'recent-sending', 'recent-sent'],
      ['site-failing-now'],
      ['recent'],
    ]);
  });
});
