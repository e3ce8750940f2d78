/** The characters an ISIN has. */
const ISIN_LENGTH = 12;

/**
 * Why an ISIN was refused: the dashboard says 'ISIN is 12 characters' for the length and
 * 'ISIN is invalid' for the other two.
 */
export type IsinProblem = 'length' | 'format' | 'check_digit';

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
  if (!ISIN_SHAPE.test(isin)) return { ok: false, problem: 'format' };
  const digits = [...isin].map((char) => Number.parseInt(char, 36).toString()).join('');
  return luhnValid(digits) ? { ok: true, isin } : { ok: false, problem: 'check_digit' };
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
