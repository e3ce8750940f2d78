import { checkIsin } from '@mimamori/isin';
import { ApiError } from '../../api/client.ts';

/**
 * What the filings section may send (docs/product.md#filings): a company search only from 3
 * characters, an ISIN search only for 12 characters with a valid ISO 6166 check digit. Checked
 * here, before any request, so a half-typed query or a mistyped ISIN costs the sources nothing.
 */

/** The fewest characters a company search is sent with. */
export const MIN_QUERY_LENGTH = 3;
/** How long a newly followed company carries its 'added' flag. */
export const ADDED_FLAG_MS = 3000;

/**
 * The query to send, or null while it is too short. Characters are counted as the user sees
 * them, so three kanji are a query as three letters are.
 */
export function searchableQuery(input: string): string | null {
  const query = input.trim();
  return [...query].length >= MIN_QUERY_LENGTH ? query : null;
}

/** Why an ISIN is not searched: 'ISIN is 12 characters' or 'ISIN is invalid'. */
export type IsinProblem = 'length' | 'invalid';

/**
 * What the ISIN box says while typing: nothing until the 3 characters any search waits for,
 * then the length rule, then the check digit.
 */
export function isinMessage(input: string): IsinProblem | null {
  if (searchableQuery(input) === null) return null;
  const check = checkIsin(input);
  if (check.ok) return null;
  return check.problem === 'length' ? 'length' : 'invalid';
}

/** The sources as their own sites name them, for the messages that name one. */
const SOURCE_NAMES: Record<string, string> = {
  tdnet: 'TDnet',
  edinet: 'EDINET',
  sec: 'SEC EDGAR',
  globenewswire: 'GlobeNewswire',
};

/**
 * What a failed search says: a source that is not switched on, or that could not be reached, is
 * named (never read as "not found"); a 429 asks to wait; anything else is a plain failure.
 */
export type SearchFailureKey =
  | 'dashboard.filings.searchFailed'
  | 'dashboard.filings.tooMany'
  | 'dashboard.filings.sourceOff'
  | 'dashboard.filings.sourceUnreachable';

export function searchFailure(error: unknown): { key: SearchFailureKey; source?: string } {
  if (!(error instanceof ApiError)) return { key: 'dashboard.filings.searchFailed' };
  if (error.status === 429) return { key: 'dashboard.filings.tooMany' };
  const source = error.field ? (SOURCE_NAMES[error.field] ?? error.field) : undefined;
  if (error.code === 'source_off' && source) return { key: 'dashboard.filings.sourceOff', source };
  if (error.code === 'source_unavailable' && source)
    return { key: 'dashboard.filings.sourceUnreachable', source };
  return { key: 'dashboard.filings.searchFailed' };
}
