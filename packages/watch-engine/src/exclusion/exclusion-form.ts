import { digitValue } from './digit-forms.ts';

/**
 * One written form of a date, time or number. Groups named y (year), m (month), d (day), h (hour) and
 * n (minute) are range-checked, so '13/45' or '1234-56' is not taken for a date.
 */
export interface ExclusionForm {
  readonly name: string;
  readonly regex: RegExp;
}

const HAS_DIGIT = /[0-9\uFF10-\uFF19]/;

export function form(name: string, source: string, flags = ''): ExclusionForm {
  return { name, regex: new RegExp(source, `gu${flags}`) };
}

/** Removes every match of every form, in order; forms only match text that has a digit. */
export function removeForms(line: string, forms: readonly ExclusionForm[]): string {
  if (!HAS_DIGIT.test(line)) return line;
  let result = line;
  for (const { regex } of forms) {
    result = result.replace(regex, (...args: unknown[]) => {
      // The replacer gets the named groups last, only when the form has any.
      const last = args.at(-1);
      const groups = typeof last === 'object' ? (last as Record<string, string | undefined>) : undefined;
      return groups === undefined || inRange(groups) ? '' : (args[0] as string);
    });
  }
  return result;
}

function inRange(groups: Record<string, string | undefined>): boolean {
  const { y, m, d, p, q, h, n } = groups;
  if (y !== undefined && /^[0-9\uFF10-\uFF19]{4}$/.test(y) && !between(y, 1900, 2199)) return false;
  if (m !== undefined && !between(m, 1, 12)) return false;
  if (d !== undefined && !between(d, 1, 31)) return false;
  // An all-numeric pair is either month/day or day/month: one of the two must be a month.
  if (p !== undefined && q !== undefined) {
    const [a, b] = [digitValue(p), digitValue(q)];
    if (a < 1 || b < 1 || a > 31 || b > 31 || Math.min(a, b) > 12) return false;
  }
  if (h !== undefined && !between(h, 0, 24)) return false;
  if (n !== undefined && !between(n, 0, 59)) return false;
  return true;
}

function between(digits: string, low: number, high: number): boolean {
  const value = digitValue(digits);
  return value >= low && value <= high;
}
