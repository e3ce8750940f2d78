import { digitValue } from './digit-forms.ts';
import { kanjiValue } from './kanji-numerals.ts';

/**
 * One written form of a date, time or number, as regex source. Groups named y (year), m (month), d (day),
 * p and q (an all-numeric day and month in either order), h (hour) and n (minute) are range-checked, so
 * '13/45' or '1234-56' is not taken for a date.
 */
export interface ExclusionForm {
  readonly name: string;
  readonly source: string;
  /** Characters (UTF-16 units) every match contains one of: a line with none of them skips the form. */
  readonly triggers?: string;
  /** A cheap test every match passes, for lines with a trigger (most lines have no date at all). */
  readonly hint?: RegExp;
}

export function form(
  name: string,
  source: string,
  prefilter?: { readonly triggers: string; readonly hint: RegExp },
): ExclusionForm {
  return prefilter ? { name, source, ...prefilter } : { name, source };
}

// Every trigger character gets a small number (0: not a trigger), so the triggers a line holds are
// found with two array reads per character, far cheaper than a hint regex for each form.
const TRIGGER_NUMBER = new Uint8Array(0x10000);
let triggersNumbered = 0;

function triggerNumber(character: string): number {
  const code = character.charCodeAt(0);
  if (TRIGGER_NUMBER[code] === 0) TRIGGER_NUMBER[code] = ++triggersNumbered;
  return TRIGGER_NUMBER[code] as number;
}

// Digits, or the kanji numerals that the kanji forms read.
const HAS_DIGIT = /[0-9\uFF10-\uFF19〇零一二三四五六七八九十百千万億]/;
const NAMED_GROUP = /\(\?<[A-Za-z]/;

/**
 * A remover for the given forms. Each form runs over the whole line in turn, so an earlier form wins
 * wherever two overlap ('Nov 22, 2026' is a month-day-year even with '5 Nov' before it), which keeps
 * the result the same when only the numbers in a line change.
 */
export function formRemover(forms: readonly ExclusionForm[]): (line: string) => string {
  if (forms.length > 31) throw new Error("at most 31 forms fit the bits of a line's triggers");
  // A form without range-checked groups removes every match: a plain replacement is the fastest way.
  const patterns = forms.map((item) => {
    const regex = new RegExp(item.source, 'gu');
    const remove = NAMED_GROUP.test(item.source)
      ? (line: string) => removeInRange(regex, line)
      : (line: string) => line.replace(regex, '');
    return { hint: item.hint, remove };
  });
  // Bit k stands for forms[k]: the forms each trigger number may start, and those without triggers.
  const formsTriggered = new Int32Array(256);
  let untriggered = 0;
  forms.forEach((item, k) => {
    if (item.triggers === undefined) untriggered |= 1 << k;
    for (const character of item.triggers ?? '') {
      const number = triggerNumber(character);
      formsTriggered[number] = (formsTriggered[number] as number) | (1 << k);
    }
  });
  return (line) => {
    if (!HAS_DIGIT.test(line)) return line;
    // Removing text adds no character, so the triggers of the whole line hold for every form after.
    let triggered = untriggered;
    for (let k = 0; k < line.length; k++) {
      triggered |= formsTriggered[TRIGGER_NUMBER[line.charCodeAt(k)] as number] as number;
    }
    let result = line;
    for (let k = 0; k < patterns.length; k++) {
      const { hint, remove } = patterns[k] as (typeof patterns)[number];
      if ((triggered & (1 << k)) !== 0 && (!hint || hint.test(result))) result = remove(result);
    }
    return result;
  };
}

/**
 * The line without the matches whose groups are in range, as `line.replace(regex, replacer)` would give
 * with a replacer keeping the others. An exec loop costs a fraction of a replacer call for each match.
 */
function removeInRange(regex: RegExp, line: string): string {
  let kept = '';
  let from = 0;
  regex.lastIndex = 0;
  for (let match = regex.exec(line); match !== null; match = regex.exec(line)) {
    const end = match.index + match[0].length;
    // An empty match moves on by one code point, as replace does.
    if (end === match.index) regex.lastIndex = end + ((line.codePointAt(end) ?? 0) > 0xffff ? 2 : 1);
    if (match.groups && !inRange(match.groups)) continue;
    kept += line.slice(from, match.index);
    from = end;
  }
  return from === 0 ? line : kept + line.slice(from);
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
  return kanjiInRange(groups);
}

/** The kanji forms' groups (ky ke km kd kh kn), read as kanji numerals and checked like the others. */
function kanjiInRange(groups: Record<string, string | undefined>): boolean {
  const within = (numeral: string | undefined, low: number, high: number) => {
    if (numeral === undefined) return true;
    const value = kanjiValue(numeral);
    return value >= low && value <= high;
  };
  return (
    within(groups.ky, 1900, 2199) &&
    within(groups.ke, 1, 99) &&
    within(groups.km, 1, 12) &&
    within(groups.kd, 1, 31) &&
    within(groups.kh, 0, 24) &&
    within(groups.kn, 0, 59)
  );
}

function between(digits: string, low: number, high: number): boolean {
  const value = digitValue(digits);
  return value >= low && value <= high;
}
