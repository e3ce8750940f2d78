import { type Db, migrate, openPostgres } from '@mimamori/db';
import { createFreshDatabase, type FreshDatabase } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VersionToRecord } from '../src/domain/judge-check.ts';
import { readJudging } from '../src/store/judging-store.ts';
import { DIFF_SCHEMA, diffMigrations } from '../src/store/migrations.ts';
import { pruneVersions, recordVersions } from '../src/store/version-store.ts';

let database: FreshDatabase;
let db: Db;

beforeAll(async () => {
  database = await createFreshDatabase();
  db = openPostgres(database.url);
  await migrate(db, DIFF_SCHEMA, diffMigrations);
});

afterAll(async () => {
  await db?.close();
  if (database) {
    await database.drop();
  }
});

const version = (areaId: string, text: string, screenshotBlobKey: string): VersionToRecord => ({
  area: { areaId, found: true, html: '', text, screenshotBlobKey },
  normalisedText: text,
  contentHash: text,
});

async function record(check: number, versions: VersionToRecord[]): Promise<void> {
  await recordVersions(
    db,
    {
      targetId: 't1',
      userId: 'u1',
      checkId: `c${check}`,
      updateId: check === 0 ? null : `u${check}`,
      pageScreenshotBlobKey: `page/${check}`,
      recordedAt: new Date(),
    },
    versions,
  );
}

describe('pruning area versions', () => {
  it('keeps the registration and the newest 100 of each area, and names the pictures nobody keeps', async () => {
    await record(0, [version('a', 'a0', 'a/0'), version('b', 'b0', 'b/0')]);
    // Check 1 recorded both areas; b's version keeps the page picture of check 1 alive.
    await record(1, [version('a', 'a1', 'a/1'), version('b', 'b1', 'b/1')]);
    for (let check = 2; check <= 102; check++) await record(check, [version('a', `a${check}`, `a/${check}`)]);

    const gone = await db.transaction((tx) => pruneVersions(tx, 't1'));
    expect(gone.sort()).toEqual(['a/1', 'a/2', 'page/2']);

    const { rows } = await db.query<{ area_id: string; text: string }>(
      'SELECT area_id, text FROM diff.area_versions ORDER BY id',
    );
    const texts = rows.filter((row) => row.area_id === 'a').map((row) => row.text);
    expect(texts).toHaveLength(101);
    expect(texts.slice(0, 2)).toEqual(['a0', 'a3']);
    expect(rows.filter((row) => row.area_id === 'b').map((row) => row.text)).toEqual(['b0', 'b1']);

    // Judging reads as many of an area's newest versions as its comparison asks for, newest first.
    const read = await readJudging(db, 'c103', 't1', [
      { areaId: 'a', versions: 3 },
      { areaId: 'b', versions: 1 },
    ]);
    expect(read.versions.get('a')?.map((kept) => kept.text)).toEqual(['a102', 'a101', 'a100']);
    expect(read.versions.get('b')?.map((kept) => kept.text)).toEqual(['b1']);
    expect(read).toMatchObject({ judged: false, forgotten: false, limits: null });
  });
});
