import type { Migration } from '@mimamori/db';

export const FILINGS_SCHEMA = 'filings';

export const filingsMigrations: Migration[] = [
  {
    version: 1,
    name: 'directory, follows, seen filings',
    sql: `
      -- The EDINET code list, refreshed by the directory job. Searched in memory (the service
      -- builds a trigram index over the folded names and codes at start and after each refresh),
      -- so no SQL text index is needed and PGlite, which lacks pg_trgm, behaves the same.
      CREATE TABLE japanese_companies (
        edinet_code text PRIMARY KEY,
        -- 4 characters as TDnet shows it; '' for an unlisted filer
        tdnet_code text NOT NULL,
        name text NOT NULL,
        name_en text NOT NULL,
        name_kana text NOT NULL,
        refreshed_at timestamptz NOT NULL
      );

      -- The SEC's company tickers; a CIK may have several tickers.
      CREATE TABLE sec_companies (
        cik text NOT NULL,
        ticker text NOT NULL,
        name text NOT NULL,
        refreshed_at timestamptz NOT NULL,
        PRIMARY KEY (cik, ticker)
      );

      -- A user's followed companies (the dashboard's tdedinets and cik_isins). code is what the
      -- follow is unique by within its kind: EDINET code, CIK or ISIN.
      CREATE TABLE follows (
        id text PRIMARY KEY,
        user_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('tdedinet', 'cik', 'isin')),
        code text NOT NULL,
        label text NOT NULL,
        edinet_code text NOT NULL DEFAULT '',
        tdnet_code text NOT NULL DEFAULT '',
        cik text NOT NULL DEFAULT '',
        ticker text NOT NULL DEFAULT '',
        isin text NOT NULL DEFAULT '',
        followed_at timestamptz NOT NULL,
        UNIQUE (user_id, kind, code)
      );
      -- The poller asks which follows a source's filings concern.
      CREATE INDEX follows_by_code ON follows (kind, code);

      -- Every filing of a followed company the poller has seen: written in the transaction that
      -- writes its filings.published events, so a second poll, a redelivered poll, a restart or
      -- a second replica never tells anyone twice.
      CREATE TABLE seen_filings (
        source text NOT NULL,
        filing_key text NOT NULL,
        company_code text NOT NULL,
        published_at timestamptz NOT NULL,
        seen_at timestamptz NOT NULL,
        PRIMARY KEY (source, filing_key)
      );
      CREATE INDEX seen_filings_published ON seen_filings (published_at);
    `,
  },
];
