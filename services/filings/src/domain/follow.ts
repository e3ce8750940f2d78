import type { SourceName } from './filing.ts';

/** The dashboard's three kinds of item: TDnet/EDINET (ja), CIK and ISIN (other locales). */
export type FollowKind = 'tdedinet' | 'cik' | 'isin';

export interface FollowRecord {
  id: string;
  userId: string;
  kind: FollowKind;
  label: string;
  edinetCode: string;
  tdnetCode: string;
  cik: string;
  ticker: string;
  isin: string;
  followedAt: Date;
}

/**
 * Follows per user, all kinds together. The spec ties no filings quota to a plan, so one limit
 * for everyone keeps polling bounded (docs/product.md#filings).
 */
export const FOLLOW_LIMIT = 100;

/** The company code a follow is unique by, within its kind. */
export function followCode(follow: Pick<FollowRecord, 'kind' | 'edinetCode' | 'cik' | 'isin'>): string {
  if (follow.kind === 'tdedinet') return follow.edinetCode;
  return follow.kind === 'cik' ? follow.cik : follow.isin;
}

/**
 * Which sources watch a follow, under which code: a Japanese company on TDnet (listed only) and
 * on EDINET, a CIK on the SEC, an ISIN on GlobeNewswire.
 */
export function followSubjects(follow: FollowRecord): { source: SourceName; code: string }[] {
  if (follow.kind === 'cik') return [{ source: 'sec', code: follow.cik }];
  if (follow.kind === 'isin') return [{ source: 'globenewswire', code: follow.isin }];
  const subjects: { source: SourceName; code: string }[] = [{ source: 'edinet', code: follow.edinetCode }];
  if (follow.tdnetCode) subjects.push({ source: 'tdnet', code: follow.tdnetCode });
  return subjects;
}
