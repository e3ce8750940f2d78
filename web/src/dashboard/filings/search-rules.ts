/**
 * What the filings section may send (docs/product.md#filings): a company search only from 3
 * characters, an ISIN search only for 12 characters with a valid ISO 6166 check digit. Checked
 * here, before any request, so a half-typed query or a mistyped ISIN costs the sources nothing.
 */

/** The fewest characters a company search is sent with. */
export const MIN_QUERY_LENGTH = 3;
export const ISIN_LENGTH = 12;
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

export type IsinCheck = { ok: true; isin: string } | { ok: false; problem: IsinProblem };

const ISIN_SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

/**
 * Checks an ISIN as ISO 6166 defines it: two letters, nine letters or digits, a check digit.
 * Letters become their base-36 values (A=10 … Z=35), then the Luhn test runs over the resulting
 * digit string, counting positions after that expansion. Input is trimmed and upper-cased first.
 */
export function checkIsin(input: string): IsinCheck {
  const isin = input.trim().toUpperCase();
  if (isin.length !== ISIN_LENGTH) return { ok: false, problem: 'length' };
  if (!ISIN_SHAPE.test(isin)) return { ok: false, problem: 'invalid' };
  const digits = [...isin].map((char) => Number.parseInt(char, 36).toString()).join('');
  return luhnValid(digits) ? { ok: true, isin } : { ok: false, problem: 'invalid' };
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  // The rightmost digit is the check digit; every second one left of it is doubled.
  for (let fromRight = 0; fromRight < digits.length; fromRight++) {
    let digit = Number(digits[digits.length - 1 - fromRight]);
    if (fromRight % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * What the ISIN box says while typing: nothing until the 3 characters any search waits for,
 * then the length rule, then the check digit.
 */
export function isinMessage(input: string): IsinProblem | null {
  if (searchableQuery(input) === null) return null;
  const check = checkIsin(input);
  return check.ok ? null : check.problem;
}
