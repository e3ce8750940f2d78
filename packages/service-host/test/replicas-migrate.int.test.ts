import { type Db, type Migration, migrate, openDatabase } from '@mimamori/db';
import { createFreshDatabase, type FreshDatabase } from '@mimamori/test-fixtures';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Every replica migrates its service's schema as it starts (runService), so a rollout or a
// scale-up starts several at once against one PostgreSQL. This is why no migration Job is
// needed: the migrations are applied once, by whichever replica takes the advisory lock first,
// and the others wait for it and find nothing left to do.

const REPLICAS = 8;

// Neither migration can run twice: a second CREATE TABLE or INSERT of the same key fails.
const migrations: Migration[] = [
  { version: 1, name: 'things', sql: 'CREATE TABLE things (id integer PRIMARY KEY)' },
  {
    version: 2,
    name: 'first thing',
    sql: "ALTER TABLE things ADD COLUMN name text; INSERT INTO things VALUES (1, 'one')",
  },
];

let database: FreshDatabase;
let replicas: Db[] = [];

beforeEach(async () => {
  database = await createFreshDatabase();
  // One pool per replica, as each pod has its own.
  replicas = await Promise.all(
    Array.from({ length: REPLICAS }, (_, index) => openDatabase(database.url, `replica-${index}`)),
  );
});

afterEach(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await database?.drop();
});

describe('replicas starting at once', () => {
  it('apply each migration exactly once, and every one of them starts', async () => {
    const outcomes = await Promise.allSettled(
      replicas.map((replica) => migrate(replica, 'replicated', migrations)),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(REPLICAS).fill('fulfilled'));
    const applied = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
    expect(applied.filter((versions) => versions.length > 0)).toEqual([[1, 2]]);

    const [first] = replicas as [Db];
    const recorded = await first.query<{ version: number }>(
      'SELECT version FROM replicated.schema_migrations ORDER BY version',
    );
    expect(recorded.rows.map((row) => row.version)).toEqual([1, 2]);
    const things = await first.query<{ id: number; name: string }>('SELECT id, name FROM replicated.things');
    expect(things.rows).toEqual([{ id: 1, name: 'one' }]);
  });

  it('after a release adds a migration, apply only the new one once', async () => {
    const [first] = replicas as [Db];
    await migrate(first, 'replicated', migrations.slice(0, 1));
    const outcomes = await Promise.all(replicas.map((replica) => migrate(replica, 'replicated', migrations)));
    expect(outcomes.filter((versions) => versions.length > 0)).toEqual([[2]]);
  });
});
