import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';

let db: Db;

beforeAll(async () => {
  db = await openPglite();
  await db.exec(
    'CREATE TABLE site (id int PRIMARY KEY, label text); INSERT INTO site VALUES (1, $$a$$), (2, $$b$$);',
  );
});

afterAll(async () => {
  await db?.close();
});

// Callers ask `rowCount > 0` whether a row matched (ownership checks, "is there more history"),
// so the embedded database must count as PostgreSQL does.
describe('rowCount on the embedded database', () => {
  it('counts the rows a SELECT answers', async () => {
    expect((await db.query('SELECT 1 FROM site WHERE id = 1 LIMIT 1')).rowCount).toBe(1);
    expect((await db.query('SELECT 1 FROM site WHERE id = 3')).rowCount).toBe(0);
  });

  it('counts the rows an UPDATE changes, with or without RETURNING, also in a transaction', async () => {
    expect((await db.query('UPDATE site SET label = label')).rowCount).toBe(2);
    const returned = await db.transaction((tx) =>
      tx.query('UPDATE site SET label = $1 WHERE id = 2 RETURNING id', ['c']),
    );
    expect(returned.rowCount).toBe(1);
    expect((await db.query('DELETE FROM site WHERE id = 9')).rowCount).toBe(0);
  });
});
