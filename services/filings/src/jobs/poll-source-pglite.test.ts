import { outboxMigration } from '@mimamori/bus';
import { type Db, migrate, openPglite } from '@mimamori/db';
import { filingPublished } from '@mimamori/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filing, FilingSource } from '../domain/filing.ts';
import { createFilingsStore } from '../store/filings-store.ts';
import { FILINGS_SCHEMA, filingsMigrations } from '../store/migrations.ts';
import { pollSource } from './poll-source.ts';

// The single-process product runs the same SQL on PGlite: seen filings and the outbox there too.
describe('pollSource on PGlite', () => {
  let db: Db;
  const now = new Date('2026-06-10T07:00:00Z');
  let listed: Filing[] = [];
  const source: FilingSource = { name: 'edinet', list: async () => listed };

  beforeAll(async () => {
    db = await openPglite();
    await migrate(db, FILINGS_SCHEMA, [...filingsMigrations, outboxMigration(FILINGS_SCHEMA)]);
    // Starting PGlite (a WebAssembly PostgreSQL) takes seconds on a loaded machine.
  }, 60_000);
  afterAll(() => db.close());

  const filing = (key: string, publishedAt: Date): Filing => ({
    source: 'edinet',
    key,
    companyCode: 'E02144',
    companyName: 'トヨタ自動車株式会社',
    title: '臨時報告書',
    documentUrl: `https://disclosure2.edinet-fsa.go.jp/WZEK0040.aspx?${key},,`,
    publishedAt,
  });

  it('records the backlog silently, then writes one event per follower once', async () => {
    const store = createFilingsStore(db);
    for (const userId of ['u1', 'u2']) {
      const follow = {
        id: `f-${userId}`,
        userId,
        kind: 'tdedinet' as const,
        label: 'トヨタ自動車株式会社',
        edinetCode: 'E02144',
        tdnetCode: '7203',
        cik: '',
        ticker: '',
        isin: '',
        followedAt: new Date(now.getTime() - 60_000),
      };
      expect((await store.follow(follow, 'E02144', 100)).outcome).toBe('added');
    }
    // Published the day before the follow: recent, but backlog.
    listed = [filing('S100OLD1', new Date('2026-06-09T07:00:00Z'))];
    expect(await pollSource(db, store, source, () => now)).toEqual({ listed: 1, newlySeen: 1, notices: 0 });

    listed = [...listed, filing('S100NEW1', now), filing('S100NEW1', now)];
    expect(await pollSource(db, store, source, () => now)).toEqual({ listed: 2, newlySeen: 1, notices: 2 });
    expect(await pollSource(db, store, source, () => now)).toEqual({ listed: 2, newlySeen: 0, notices: 0 });

    const { rows } = await db.query<{ id: string; payload: Uint8Array }>(
      `SELECT id, payload FROM ${FILINGS_SCHEMA}.outbox ORDER BY seq`,
    );
    expect(rows.map((row) => row.id)).toEqual(['filing:edinet:S100NEW1:u1', 'filing:edinet:S100NEW1:u2']);
    expect(filingPublished.decode(rows[0]?.payload ?? new Uint8Array())).toMatchObject({
      userId: 'u1',
      followId: 'f-u1',
      source: 'edinet',
      filingKey: 'S100NEW1',
      title: '臨時報告書',
      publishedAt: now,
    });
  });
});
