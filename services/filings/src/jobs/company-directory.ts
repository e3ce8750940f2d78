import type { Logger } from '@mimamori/runtime';
import { CompanyIndex } from '../domain/company-index.ts';
import { SourceError, type SourceName } from '../domain/filing.ts';
import { FilingsProblem } from '../domain/filings-problem.ts';
import { searchKey } from '../domain/search-key.ts';
import type { FilingsStore, JapaneseCompanyRow, SecCompanyRow } from '../store/filings-store.ts';

/** Options a search answers at most; the dashboard shows them as a pick list. */
export const SEARCH_LIMIT = 20;

export interface DirectorySources {
  japanese?: () => Promise<JapaneseCompanyRow[]>;
  sec?: () => Promise<SecCompanyRow[]>;
}

export interface CompanyDirectory {
  /** Builds the in-memory indexes from the stored directory (start, and on other replicas' refreshes). */
  load(): Promise<void>;
  /** Fetches the code list and the tickers file, stores them and reloads; a failed part keeps its old rows. */
  refresh(): Promise<void>;
  /**
   * Companies matching a folded query. Throws FilingsProblem source_off when the part's source is
   * not switched on, and SourceError when it is but its list could not be read yet, so an empty
   * directory is never answered as "not found".
   */
  searchJapanese(query: string): JapaneseCompanyRow[];
  searchSec(query: string): SecCompanyRow[];
  /** The company a follow names, or undefined when the directory does not know it. */
  japaneseCompany(edinetCode: string): Promise<JapaneseCompanyRow | undefined>;
  secCompany(cik: string): Promise<SecCompanyRow | undefined>;
  start(refreshEveryMs: number): void;
  stop(): Promise<void>;
}

export function japaneseIndex(rows: readonly JapaneseCompanyRow[]): CompanyIndex<JapaneseCompanyRow> {
  return new CompanyIndex(
    rows.map((row) => ({
      company: row,
      keys: [row.edinetCode, row.tdnetCode, row.name, row.nameEn, row.nameKana]
        .filter((key) => key !== '')
        .map(searchKey),
    })),
  );
}

export function secIndex(rows: readonly SecCompanyRow[]): CompanyIndex<SecCompanyRow> {
  return new CompanyIndex(
    rows.map((row) => ({
      company: row,
      // A CIK is typed bare (320193) or as the SEC pads it (0000320193).
      keys: [row.cik, row.cik.padStart(10, '0'), row.ticker, row.name].map(searchKey),
    })),
  );
}

/**
 * The company directory: the EDINET code list and the SEC tickers, stored in PostgreSQL by a
 * periodic refresh and searched in memory. Each replica refreshes on its own timer; the
 * stored rows are the same whoever wrote them last.
 */
export function createCompanyDirectory(
  store: FilingsStore,
  sources: DirectorySources,
  logger: Logger,
): CompanyDirectory {
  let japanese = japaneseIndex([]);
  let sec = secIndex([]);
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;
  let stopped = false;
  /** Parts whose last download failed. */
  const failed = new Set<string>();

  const load = async () => {
    const [japaneseRows, secRows] = await Promise.all([store.japaneseDirectory(), store.secDirectory()]);
    japanese = japaneseIndex(japaneseRows);
    sec = secIndex(secRows);
  };

  const refreshPart = async <Row>(
    name: string,
    fetch: (() => Promise<Row[]>) | undefined,
    replace: (rows: Row[], at: Date) => Promise<void>,
  ) => {
    if (!fetch) return;
    try {
      const rows = await fetch();
      // An empty list is a broken download, not a directory without companies.
      if (rows.length === 0) throw new Error(`${name} directory came back empty`);
      await replace(rows, new Date());
      failed.delete(name);
      logger.info({ directory: name, companies: rows.length }, 'company directory refreshed');
    } catch (error) {
      failed.add(name);
      logger.warn(
        { err: error, directory: name },
        'company directory refresh failed; keeping the stored one',
      );
    }
  };

  /**
   * An empty part is not searched: its source is off, or on but its list not read yet
   * (docs/filings.md). A part with stored companies is searched even while its refresh fails.
   */
  const usable = (name: string, source: SourceName, fetch: unknown, size: number) => {
    if (size > 0) return;
    if (!fetch) throw new FilingsProblem('source_unavailable', 'source_off', source);
    throw new SourceError(
      source,
      'unavailable',
      failed.has(name) ? `the ${name} directory could not be downloaded` : `the ${name} directory is loading`,
    );
  };

  const refresh = async () => {
    await refreshPart('japanese', sources.japanese, (rows, at) => store.replaceJapaneseDirectory(rows, at));
    await refreshPart('sec', sources.sec, (rows, at) => store.replaceSecDirectory(rows, at));
    await load();
  };

  return {
    load,
    refresh() {
      refreshing ??= refresh().finally(() => {
        refreshing = undefined;
      });
      return refreshing;
    },
    searchJapanese(query) {
      usable('japanese', 'edinet', sources.japanese, japanese.size);
      return japanese.search(query, SEARCH_LIMIT);
    },
    searchSec(query) {
      usable('sec', 'sec', sources.sec, sec.size);
      return sec.search(query, SEARCH_LIMIT);
    },
    japaneseCompany: (edinetCode) => store.japaneseCompany(edinetCode),
    secCompany: (cik) => store.secCompany(cik),
    start(refreshEveryMs) {
      // A configured part still missing (the first read came before the schema existed, or its
      // download failed) is tried again soon, the wait doubling, rather than leaving search
      // empty until the next daily refresh.
      const missing = () => (sources.japanese && japanese.size === 0) || (sources.sec && sec.size === 0);
      let retryMs = 5_000;
      const firstRead = async () => {
        await load();
        if (japanese.size === 0 || sec.size === 0) await this.refresh();
      };
      const later = (work: () => Promise<void>, delayMs: number) => {
        if (stopped) return;
        timer = setTimeout(() => {
          work()
            .catch((error: unknown) => logger.warn({ err: error }, 'company directory load failed'))
            .finally(() => {
              if (!missing()) return later(() => this.refresh(), refreshEveryMs);
              later(firstRead, Math.min(retryMs, refreshEveryMs));
              retryMs *= 2;
            });
        }, delayMs);
        timer.unref();
      };
      // The module is made before the host migrates its schema, so the first read waits a
      // moment; a directory never fetched (a new database) is fetched right away.
      later(firstRead, 2_000);
    },
    // A refresh in flight is not awaited: its download may take the whole source timeout, and
    // what it would write is written again by the next refresh.
    async stop() {
      if (timer) clearTimeout(timer);
      stopped = true;
    },
  };
}
