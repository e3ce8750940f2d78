import { randomUUID } from 'node:crypto';
import { type Db, migrate, openPglite, openPostgres } from '@mimamori/db';
import { createFreshDatabase, type FreshDatabase } from '@mimamori/test-fixtures';
import { afterAll, describe, expect, it } from 'vitest';
import { phaseOf } from '../src/domain/phase.ts';
import { SCHEDULER_SCHEMA, schedulerMigrations } from '../src/store/migrations.ts';

const INTERVALS = [60_000, 600_000, 3_600_000, 86_400_000];
// Random ids as the services make them, one account with several sites, and non-ASCII text,
// which both sides must hash as UTF-8.
const account = `user-${randomUUID()}`;
const rows = [
  ...Array.from({ length: 6 }, () => ({ targetId: randomUUID(), userId: `user-${randomUUID()}` })),
  ...Array.from({ length: 4 }, () => ({ targetId: randomUUID(), userId: account })),
  { targetId: 'サイト-1', userId: 'ユーザー-ü' },
].map((row, i) => ({ ...row, intervalMs: INTERVALS[i % INTERVALS.length] as number }));

/**
 * Schedules written before migration 3 (each at its old per-site phase, here 0) must come out of
 * it at exactly the phase the TypeScript computes, or a replica's events and the migration would
 * put one site at two phases.
 */
async function migratedPhases(db: Db): Promise<Map<string, number>> {
  await migrate(
    db,
    SCHEDULER_SCHEMA,
    schedulerMigrations.filter((migration) => migration.version < 3),
  );
  for (const row of rows) {
    await db.query(
      `INSERT INTO scheduler.schedules
         (target_id, user_id, interval_ms, phase_ms, active, revision, changed_at, check_template)
       VALUES ($1, $2, $3, 0, true, 1, now(), '\\x'::bytea)`,
      [row.targetId, row.userId, row.intervalMs],
    );
  }
  expect(
    await migrate(
      db,
      SCHEDULER_SCHEMA,
      schedulerMigrations.filter((migration) => migration.version <= 3),
    ),
  ).toEqual([3]);
  const { rows: migrated } = await db.query<{ target_id: string; phase_ms: string }>(
    'SELECT target_id, phase_ms FROM scheduler.schedules',
  );
  return new Map(migrated.map((row) => [row.target_id, Number(row.phase_ms)]));
}

describe('migration 3 moves existing schedules to the account phase', () => {
  let database: FreshDatabase | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
    await database?.drop();
  });

  it('computes what phaseOf computes, on real PostgreSQL', async () => {
    database = await createFreshDatabase();
    const db = openPostgres(database.url, { max: 2 });
    closers.push(() => db.close());
    const phases = await migratedPhases(db);
    for (const row of rows)
      expect(phases.get(row.targetId)).toBe(phaseOf(row.targetId, row.userId, row.intervalMs));
  });

  it('computes the same on the embedded database of the single-process mode', async () => {
    const db = await openPglite();
    closers.push(() => db.close());
    const phases = await migratedPhases(db);
    for (const row of rows)
      expect(phases.get(row.targetId)).toBe(phaseOf(row.targetId, row.userId, row.intervalMs));
  });
});
