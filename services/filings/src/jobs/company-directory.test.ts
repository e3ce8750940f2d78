import { createLogger } from '@mimamori/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SourceError } from '../domain/filing.ts';
import { searchQuery } from '../domain/search-key.ts';
import type { FilingsStore, JapaneseCompanyRow, SecCompanyRow } from '../store/filings-store.ts';
import { createCompanyDirectory } from './company-directory.ts';

const TOYOTA: JapaneseCompanyRow = {
  edinetCode: 'E02144',
  tdnetCode: '72030',
  name: 'トヨタ自動車株式会社',
  nameEn: 'TOYOTA MOTOR CORPORATION',
  nameKana: 'トヨタジドウシャカブシキガイシャ',
};
const APPLE: SecCompanyRow = { cik: '320193', ticker: 'AAPL', name: 'Apple Inc.' };

/** The store's directory part, kept in memory: what was written is what is read. */
function memoryStore() {
  let japanese: JapaneseCompanyRow[] = [];
  let sec: SecCompanyRow[] = [];
  return {
    japaneseDirectory: async () => japanese,
    secDirectory: async () => sec,
    replaceJapaneseDirectory: async (rows: readonly JapaneseCompanyRow[]) => {
      japanese = [...rows];
    },
    replaceSecDirectory: async (rows: readonly SecCompanyRow[]) => {
      sec = [...rows];
    },
  } as unknown as FilingsStore;
}

afterEach(() => vi.useRealTimers());

describe('company directory timer', () => {
  it('tries a failed first download again within a minute, not at the next daily refresh', async () => {
    vi.useFakeTimers();
    let japaneseCalls = 0;
    const directory = createCompanyDirectory(
      memoryStore(),
      {
        japanese: async () => {
          japaneseCalls += 1;
          if (japaneseCalls === 1) throw new Error('code list unreachable');
          return [TOYOTA];
        },
        sec: async () => [APPLE],
      },
      createLogger({ service: 'test', level: 'silent' }),
    );
    directory.start(24 * 3_600_000);
    await vi.advanceTimersByTimeAsync(2_000);
    // An empty directory whose download failed names the source instead of answering "not found".
    expect(() => directory.searchJapanese(searchQuery('トヨタ') ?? '')).toThrow(
      new SourceError('edinet', 'unavailable', 'the japanese directory could not be downloaded'),
    );
    expect(directory.searchSec(searchQuery('AAPL') ?? '')).toEqual([APPLE]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(japaneseCalls).toBe(2);
    expect(directory.searchJapanese(searchQuery('トヨタ') ?? '')).toEqual([TOYOTA]);
    await directory.stop();
  });

  it('once complete, waits the refresh interval before fetching again', async () => {
    vi.useFakeTimers();
    let fetches = 0;
    const directory = createCompanyDirectory(
      memoryStore(),
      {
        japanese: async () => {
          fetches += 1;
          return [TOYOTA];
        },
      },
      createLogger({ service: 'test', level: 'silent' }),
    );
    directory.start(3_600_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetches).toBe(1);
    await vi.advanceTimersByTimeAsync(3_500_000);
    expect(fetches).toBe(1);
    await vi.advanceTimersByTimeAsync(200_000);
    expect(fetches).toBe(2);
    await directory.stop();
  });
});
