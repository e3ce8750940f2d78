import { checkIsin } from '@mimamori/isin';

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
