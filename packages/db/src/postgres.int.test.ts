import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db.ts';
import { openPostgres } from './postgres.ts';

const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `prepared_${randomBytes(4).toString('hex')}`;
let db: Db;

beforeAll(async () => {
  // One connection, so that what it prepared is what the next query finds.
  db = openPostgres(databaseUrl, { max: 1 });
  await db.exec(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.sites (id text PRIMARY KEY, label text)`);
  await db.query(`INSERT INTO ${schema}.sites VALUES ($1, $2)`, ['s1', 'Tea shop']);
});

afterAll(async () => {
  await db?.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await db?.close();
});

describe('openPostgres', () => {
  it('prepares a parameterised statement once per connection and runs it again by name', async () => {
    const read = `SELECT label FROM ${schema}.sites WHERE id = $1`;
    expect((await db.query(read, ['s1'])).rows).toEqual([{ label: 'Tea shop' }]);
    expect((await db.query(read, ['s1'])).rows).toEqual([{ label: 'Tea shop' }]);
    const { rows } = await db.query<{ statement: string }>(
      'SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1',
      [`%${schema}.sites WHERE id%`],
    );
    expect(rows.map((row) => row.statement)).toEqual([read]);
  });

  it('keeps answering after a migration changed the shape of a table a prepared statement reads', async () => {
    const read = `SELECT * FROM ${schema}.sites WHERE id = $1`;
    expect((await db.query(read, ['s1'])).rows).toEqual([{ id: 's1', label: 'Tea shop' }]);
    await db.exec(`ALTER TABLE ${schema}.sites ADD COLUMN url text NOT NULL DEFAULT ''`);
    // Outside a transaction it is asked again under a new name at once.
    expect((await db.query(read, ['s1'])).rows).toEqual([{ id: 's1', label: 'Tea shop', url: '' }]);

    await db.exec(`ALTER TABLE ${schema}.sites ADD COLUMN paused boolean NOT NULL DEFAULT false`);
    // Inside one the transaction fails, as any failed statement fails it; the next one answers.
    await expect(db.transaction((tx) => tx.query(read, ['s1']))).rejects.toThrow(/cached plan/);
    expect((await db.transaction((tx) => tx.query(read, ['s1']))).rows).toEqual([
      { id: 's1', label: 'Tea shop', url: '', paused: false },
    ]);
  });
});
