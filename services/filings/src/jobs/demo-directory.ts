import { DEMO_COMPANIES } from '../clients/demo-data.ts';
import { CompanyIndex } from '../domain/company-index.ts';
import { searchKey } from '../domain/search-key.ts';
import type { JapaneseCompanyRow, SecCompanyRow } from '../store/filings-store.ts';
import { type CompanyDirectory, SEARCH_LIMIT } from './company-directory.ts';

/**
 * The directory of the bundled demo set, in memory and never stored: the Japanese companies by
 * securities code, EDINET code, ISIN and name (Japanese, English, kana), the SEC's by CIK
 * (bare or padded), ticker, ISIN and name. Nothing is downloaded, so there is nothing to refresh.
 */
export function createDemoDirectory(): CompanyDirectory {
  const japanese = DEMO_COMPANIES.filter((company) => company.edinetCode !== '');
  const sec = DEMO_COMPANIES.filter((company) => company.cik !== '');
  const japaneseRows: JapaneseCompanyRow[] = japanese.map((company) => ({
    edinetCode: company.edinetCode,
    tdnetCode: company.tdnetCode,
    name: company.name,
    nameEn: company.nameEn,
    nameKana: company.nameKana,
  }));
  const secRows: SecCompanyRow[] = sec.map((company) => ({
    cik: company.cik,
    ticker: company.ticker,
    name: company.name,
  }));
  const japaneseIndex = new CompanyIndex(
    japanese.map((company, i) => ({
      company: japaneseRows[i] as JapaneseCompanyRow,
      keys: [
        company.edinetCode,
        company.tdnetCode,
        company.isin,
        company.name,
        company.nameEn,
        company.nameKana,
      ].map(searchKey),
    })),
  );
  const secIndex = new CompanyIndex(
    sec.map((company, i) => ({
      company: secRows[i] as SecCompanyRow,
      keys: [company.cik, company.cik.padStart(10, '0'), company.ticker, company.isin, company.name].map(
        searchKey,
      ),
    })),
  );
  return {
    async load() {},
    async refresh() {},
    searchJapanese: (query) => japaneseIndex.search(query, SEARCH_LIMIT),
    searchSec: (query) => secIndex.search(query, SEARCH_LIMIT),
    japaneseCompany: async (edinetCode) => japaneseRows.find((row) => row.edinetCode === edinetCode),
    secCompany: async (cik) => secRows.find((row) => row.cik === cik),
    start() {},
    async stop() {},
  };
}
