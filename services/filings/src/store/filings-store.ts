import type { Db, Sql } from '@mimamori/db';
import type { Filing, SourceName } from '../domain/filing.ts';
import type { FollowKind, FollowRecord } from '../domain/follow.ts';
import { FILINGS_SCHEMA as S } from './migrations.ts';

export interface JapaneseCompanyRow {
  edinetCode: string;
  tdnetCode: string;
  name: string;
  nameEn: string;
  nameKana: string;
}

export interface SecCompanyRow {
  cik: string;
  ticker: string;
  name: string;
}

interface FollowDbRow {
  id: string;
  user_id: string;
  kind: FollowKind;
  label: string;
  edinet_code: string;
  tdnet_code: string;
  cik: string;
  ticker: string;
  isin: string;
  followed_at: Date;
}

const FOLLOW_COLUMNS = 'id, user_id, kind, label, edinet_code, tdnet_code, cik, ticker, isin, followed_at';
/** Rows per INSERT when the directory is written (PostgreSQL takes at most 65,535 parameters). */
const BATCH = 1_000;

function followRecord(row: FollowDbRow): FollowRecord {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    label: row.label,
    edinetCode: row.edinet_code,
    tdnetCode: row.tdnet_code,
    cik: row.cik,
    ticker: row.ticker,
    isin: row.isin,
    followedAt: new Date(row.followed_at),
  };
}

/** The column of follows holding the code each source matches filings on. */
const codeColumnOf: Record<SourceName, { kind: FollowKind; column: string }> = {
  tdnet: { kind: 'tdedinet', column: 'tdnet_code' },
  edinet: { kind: 'tdedinet', column: 'edinet_code' },
  sec: { kind: 'cik', column: 'cik' },
  globenewswire: { kind: 'isin', column: 'isin' },
};

export function createFilingsStore(db: Db) {
  return {
    /** Replaces the Japanese directory with the code list just read, in one transaction. */
    async replaceJapaneseDirectory(rows: readonly JapaneseCompanyRow[], at: Date): Promise<void> {
      await db.transaction(async (tx) => {
        for (let i = 0; i < rows.length; i += BATCH) {
          const batch = rows.slice(i, i + BATCH);
          const params: unknown[] = [at];
          const values = batch.map((row) => {
            params.push(row.edinetCode, row.tdnetCode, row.name, row.nameEn, row.nameKana);
            const n = params.length;
            return `($${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}, $1)`;
          });
          await tx.query(
            `INSERT INTO ${S}.japanese_companies (edinet_code, tdnet_code, name, name_en, name_kana, refreshed_at)
             VALUES ${values.join(', ')}
             ON CONFLICT (edinet_code) DO UPDATE SET tdnet_code = excluded.tdnet_code, name = excluded.name,
               name_en = excluded.name_en, name_kana = excluded.name_kana, refreshed_at = excluded.refreshed_at`,
            params,
          );
        }
        await tx.query(`DELETE FROM ${S}.japanese_companies WHERE refreshed_at < $1`, [at]);
      });
    },

    async replaceSecDirectory(rows: readonly SecCompanyRow[], at: Date): Promise<void> {
      await db.transaction(async (tx) => {
        for (let i = 0; i < rows.length; i += BATCH) {
          const batch = rows.slice(i, i + BATCH);
          const params: unknown[] = [at];
          const values = batch.map((row) => {
            params.push(row.cik, row.ticker, row.name);
            const n = params.length;
            return `($${n - 2}, $${n - 1}, $${n}, $1)`;
          });
          await tx.query(
            `INSERT INTO ${S}.sec_companies (cik, ticker, name, refreshed_at) VALUES ${values.join(', ')}
             ON CONFLICT (cik, ticker) DO UPDATE SET name = excluded.name, refreshed_at = excluded.refreshed_at`,
            params,
          );
        }
        await tx.query(`DELETE FROM ${S}.sec_companies WHERE refreshed_at < $1`, [at]);
      });
    },

    async japaneseDirectory(): Promise<JapaneseCompanyRow[]> {
      const { rows } = await db.query<JapaneseCompanyRow>(
        `SELECT edinet_code AS "edinetCode", tdnet_code AS "tdnetCode", name, name_en AS "nameEn",
                name_kana AS "nameKana"
         FROM ${S}.japanese_companies ORDER BY edinet_code`,
      );
      return rows;
    },

    async secDirectory(): Promise<SecCompanyRow[]> {
      const { rows } = await db.query<SecCompanyRow>(
        `SELECT cik, ticker, name FROM ${S}.sec_companies ORDER BY cik::bigint, ticker`,
      );
      return rows;
    },

    async japaneseCompany(edinetCode: string): Promise<JapaneseCompanyRow | undefined> {
      const { rows } = await db.query<JapaneseCompanyRow>(
        `SELECT edinet_code AS "edinetCode", tdnet_code AS "tdnetCode", name, name_en AS "nameEn",
                name_kana AS "nameKana"
         FROM ${S}.japanese_companies WHERE edinet_code = $1`,
        [edinetCode],
      );
      return rows[0];
    },

    /** The CIK's first ticker and name, or undefined for a CIK not in the tickers file. */
    async secCompany(cik: string): Promise<SecCompanyRow | undefined> {
      const { rows } = await db.query<SecCompanyRow>(
        `SELECT cik, ticker, name FROM ${S}.sec_companies WHERE cik = $1 ORDER BY ticker LIMIT 1`,
        [cik],
      );
      return rows[0];
    },

    /**
     * Adds a follow unless the user already follows the company (answers the existing one) or
     * already has `limit` follows. A per-user lock keeps two adds at once from passing the limit.
     */
    async follow(
      record: FollowRecord,
      code: string,
      limit: number,
    ): Promise<{ outcome: 'added' | 'exists'; follow: FollowRecord } | { outcome: 'limit' }> {
      return db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`filings-follow:${record.userId}`]);
        const existing = await tx.query<FollowDbRow>(
          `SELECT ${FOLLOW_COLUMNS} FROM ${S}.follows WHERE user_id = $1 AND kind = $2 AND code = $3`,
          [record.userId, record.kind, code],
        );
        if (existing.rows[0]) return { outcome: 'exists' as const, follow: followRecord(existing.rows[0]) };
        const { rows } = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${S}.follows WHERE user_id = $1`,
          [record.userId],
        );
        if ((rows[0]?.n ?? 0) >= limit) return { outcome: 'limit' as const };
        await tx.query(
          `INSERT INTO ${S}.follows (${FOLLOW_COLUMNS}, code) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            record.id,
            record.userId,
            record.kind,
            record.label,
            record.edinetCode,
            record.tdnetCode,
            record.cik,
            record.ticker,
            record.isin,
            record.followedAt,
            code,
          ],
        );
        return { outcome: 'added' as const, follow: record };
      });
    },

    async unfollow(userId: string, followId: string): Promise<boolean> {
      const { rowCount } = await db.query(`DELETE FROM ${S}.follows WHERE user_id = $1 AND id = $2`, [
        userId,
        followId,
      ]);
      return rowCount > 0;
    },

    /** Removes every follow of an account, in the caller's transaction. */
    async unfollowAll(tx: Sql, userId: string): Promise<number> {
      const { rowCount } = await tx.query(`DELETE FROM ${S}.follows WHERE user_id = $1`, [userId]);
      return rowCount;
    },

    /** A user's follows in the order they were added. */
    async followsOf(userId: string): Promise<FollowRecord[]> {
      const { rows } = await db.query<FollowDbRow>(
        `SELECT ${FOLLOW_COLUMNS} FROM ${S}.follows WHERE user_id = $1 ORDER BY followed_at, id`,
        [userId],
      );
      return rows.map(followRecord);
    },

    /** The codes a source is polled for: those some user follows. */
    async followedCodes(source: SourceName): Promise<string[]> {
      const { kind, column } = codeColumnOf[source];
      const { rows } = await db.query<{ code: string }>(
        `SELECT DISTINCT ${column} AS code FROM ${S}.follows WHERE kind = $1 AND ${column} <> '' ORDER BY 1`,
        [kind],
      );
      return rows.map((row) => row.code);
    },

    /** The follows of these companies on this source, read in the poll's transaction. */
    async followsOfCodes(tx: Sql, source: SourceName, codes: readonly string[]): Promise<FollowRecord[]> {
      const { kind, column } = codeColumnOf[source];
      const { rows } = await tx.query<FollowDbRow>(
        `SELECT ${FOLLOW_COLUMNS} FROM ${S}.follows WHERE kind = $1 AND ${column} = ANY($2::text[]) ORDER BY followed_at, id`,
        [kind, [...codes]],
      );
      return rows.map(followRecord);
    },

    /**
     * Records filings as seen and answers those not seen before; one statement, so of two
     * polls at once (a redelivery, a second replica) only one gets a filing back.
     */
    async markSeen(tx: Sql, filings: readonly Filing[], at: Date): Promise<Filing[]> {
      if (filings.length === 0) return [];
      const { rows } = await tx.query<{ source: string; filing_key: string }>(
        `INSERT INTO ${S}.seen_filings (source, filing_key, company_code, published_at, seen_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[])
         ON CONFLICT (source, filing_key) DO NOTHING
         RETURNING source, filing_key`,
        [
          filings.map((filing) => filing.source),
          filings.map((filing) => filing.key),
          filings.map((filing) => filing.companyCode),
          filings.map((filing) => filing.publishedAt),
          filings.map(() => at),
        ],
      );
      const fresh = new Set(rows.map((row) => `${row.source}\u0000${row.filing_key}`));
      return filings.filter((filing) => fresh.has(`${filing.source}\u0000${filing.key}`));
    },

    /** Forgets filings published before `before`; the notice rule never tells those again. */
    async forgetSeenBefore(before: Date): Promise<number> {
      const { rowCount } = await db.query(`DELETE FROM ${S}.seen_filings WHERE published_at < $1`, [before]);
      return rowCount;
    },
  };
}

export type FilingsStore = ReturnType<typeof createFilingsStore>;
