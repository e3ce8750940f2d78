import { createHash } from 'node:crypto';
import type { AreaOptions } from '../area-options.ts';
import { DATE_FORMS } from '../exclusion/date-forms.ts';
import { excludedWordsPattern } from '../exclusion/excluded-words.ts';
import { formRemover } from '../exclusion/exclusion-form.ts';
import { KANJI_COUNT_FORM, NUMBER_FORM } from '../exclusion/number-forms.ts';
import { TIME_FORMS } from '../exclusion/time-forms.ts';
import { compileUserRegex, removeUserRegexMatches } from '../python-regex/user-regex.ts';
import { foldWidth } from './fold-width.ts';

/** An area's content as the engine compares it and as a person sees it in the diff. */
export interface NormalisedArea {
  /** The normalised lines joined by '\n'. */
  readonly text: string;
  readonly lines: readonly string[];
  /**
   * sha256 (hex) of the normalised text with all whitespace removed: two contents have the same hash
   * exactly when the engine sees no change between them.
   */
  readonly contentHash: string;
}

// Characters that render as nothing (format characters: zero-width spaces and joiners, soft hyphen, BOM,
// bidi marks) and control characters other than tabs and line breaks (which are all Cc, not Cf). Written
// as a union rather than a set difference: the 'v' flag's difference runs several times slower.
export const INVISIBLE = /[^\P{Cc}\t\n\v\f\r\u0085]|\p{Cf}/gu;
// Every character INVISIBLE matches, and more (Arabic script, general punctuation, any surrogate): a
// test without the u flag scans several times faster, and most text (Latin, kana, kanji) has none of
// them, so the exact replace runs only where it may remove something. A test holds it to that.
export const MAYBE_INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
  /[\0-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\xad\u0600-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]/;
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
const LINE_BREAK_CHARACTER = /[\n\r\v\f\u0085\u2028\u2029]/;
// JavaScript's \s already covers Unicode spaces (NBSP, U+3000); without the u flag it runs faster.
const WHITESPACE_RUN = /\s+/g;
// Removing one match can join text into a new match ('aabb' without 'ab'); repeating until nothing
// changes keeps normalisation idempotent. Real text settles in one or two passes.
const MAX_EXCLUSION_PASSES = 8;

/** Normalises extracted area content (see extractAreaContent) with the area's options. */
export function normaliseArea(content: string, options: AreaOptions): NormalisedArea {
  const lines = createAreaNormaliser(options).lines(content);
  return { text: lines.join('\n'), lines, contentHash: contentHashOf(compactLines(lines)) };
}

/**
 * Normalises the versions of one area. It remembers each distinct line, so normalising the previous,
 * current and past versions, which share most lines, costs little more than one of them.
 */
export interface AreaNormaliser {
  /** The normalised lines of extracted content (see extractAreaContent), blank ones left out. */
  lines(content: string): string[];
  /**
   * Whether the content, normalised, is `compact` once whitespace is removed (see compactLines), which
   * is when its content hash would be the same. The content may come in pieces (see visibleTextPieces);
   * this stops at the first line that differs, before the pieces after it are made.
   */
  hasCompactText(content: Iterable<string>, compact: string): boolean;
}

export function createAreaNormaliser(options: AreaOptions): AreaNormaliser {
  const normaliseLine = lineNormaliser(options);
  const lineCache = new Map<string, string>();
  /**
   * Visits each normalised, non-blank line until `visit` returns false; says whether all were visited.
   * Lines are cut off one by one, so content that differs early (a past version) is not read further.
   * Invisible characters are no line breaks, so they are removed line by line, and only from lines the
   * cache does not know.
   */
  const eachLine = (content: string, visit: (line: string) => boolean): boolean => {
    let from = 0;
    for (;;) {
      // test() rather than exec(): it makes no match array. A break is one character or '\r\n'.
      LINE_BREAK.lastIndex = from;
      const found = LINE_BREAK.test(content);
      const next = LINE_BREAK.lastIndex;
      let end = content.length;
      if (found) end = next - 2 >= from && content.startsWith('\r\n', next - 2) ? next - 2 : next - 1;
      const raw = content.slice(from, end);
      let line = lineCache.get(raw);
      if (line === undefined) {
        line = normaliseLine(MAYBE_INVISIBLE.test(raw) ? raw.replace(INVISIBLE, '') : raw);
        lineCache.set(raw, line);
      }
      if (line !== '' && !visit(line)) return false;
      if (!found) return true;
      from = next;
    }
  };
  return {
    lines(content) {
      const lines: string[] = [];
      eachLine(content, (line) => lines.push(line) > 0);
      return lines;
    },
    hasCompactText(content, compact) {
      const reader = compactReader(compact);
      const visit = reader.take;
      // Only whole lines are normalised: the text after a piece's last line break waits for the next.
      // A '\r\n' cut in two reads as two line breaks, and the blank line between them is left out anyway.
      let rest = '';
      for (const piece of content) {
        const text = rest + piece;
        const end = lastLineBreak(text);
        if (end < 0) {
          rest = text;
          continue;
        }
        if (!eachLine(text.slice(0, end), visit)) return false;
        rest = text.slice(end + 1);
      }
      return eachLine(rest, visit) && reader.whole();
    },
  };
}

/** Whether normalised lines are `compact` once whitespace is removed; stops at the first that differs. */
export function linesHaveCompactText(lines: readonly string[], compact: string): boolean {
  const reader = compactReader(compact);
  return lines.every(reader.take) && reader.whole();
}

/** Reads normalised lines one by one for as long as they agree with the start of `compact`. */
function compactReader(compact: string): { take: (line: string) => boolean; whole: () => boolean } {
  let at = 0;
  return {
    take: (line) => {
      const piece = compactLine(line);
      if (!compact.startsWith(piece, at)) return false;
      at += piece.length;
      return true;
    },
    whole: () => at === compact.length,
  };
}

function lastLineBreak(text: string): number {
  for (let k = text.length - 1; k >= 0; k--) {
    if (LINE_BREAK_CHARACTER.test(text[k] as string)) return k;
  }
  return -1;
}

/**
 * Normalised lines with all whitespace removed: what 'no change' is decided on. Normalised lines hold no
 * whitespace but single spaces, so this is their text ('\n'-joined) without any whitespace.
 */
export function compactLines(lines: readonly string[]): string {
  return lines.join('').replaceAll(' ', '');
}

function compactLine(line: string): string {
  return line.includes(' ') ? line.replaceAll(' ', '') : line;
}

/**
 * sha256 (hex) of the compact text (see compactLines): two contents have the same hash exactly when the
 * engine sees no change between them.
 */
export function contentHashOf(compact: string): string {
  return createHash('sha256').update(compact).digest('hex');
}

function lineNormaliser(options: AreaOptions): (line: string) => string {
  const userRegexes = options.excludeRegexes.map(compileUserRegex);
  const words = excludedWordsPattern(options.excludeWords);
  const removeForms = formRemover([
    ...(options.excludeDates ? DATE_FORMS : []),
    ...(options.excludeTimes ? TIME_FORMS : []),
    ...(options.excludeNumbers ? [NUMBER_FORM, KANJI_COUNT_FORM] : []),
  ]);
  const excludes =
    userRegexes.length > 0 ||
    words !== undefined ||
    options.excludeDates ||
    options.excludeTimes ||
    options.excludeNumbers;
  // User patterns and words see the line before dates and numbers are taken out, as it was written.
  const exclude = (line: string): string => {
    let result = line;
    for (const regex of userRegexes) result = removeUserRegexMatches(regex, result);
    if (words) result = result.replace(words, '');
    return removeForms(result);
  };
  if (!excludes) return (raw) => collapseWhitespace(raw.normalize('NFC'));
  // Under exclusions the line is width-folded as keyword rules fold it, so 'ＳＡＬＥ' goes with the
  // excluded word 'SALE' and a price in full-width digits reads as the same price in half-width ones.
  // Every line met on the way to a settled line, with the passes it takes from there. Lines that differ
  // only in what is excluded (a counter, a price) meet after the first pass, so the passes that check a
  // line has settled run once for all of them. A line that needs more passes than are left is worked
  // out again, so the result is the same as without the memo.
  const settledFrom = new Map<string, Settled>();
  return (raw) => {
    const met: string[] = [];
    let line = collapseWhitespace(foldWidth(raw));
    let settled: Settled | undefined;
    for (let pass = 0; settled === undefined; pass++) {
      if (line === '') {
        settled = { line, passes: 0 };
        break;
      }
      // A line as written comes back as the same raw line, which the line cache answers: only the lines
      // after a pass are looked up and remembered.
      const known = pass > 0 ? settledFrom.get(line) : undefined;
      if (known !== undefined && pass + known.passes <= MAX_EXCLUSION_PASSES) {
        settled = known;
        break;
      }
      if (pass === MAX_EXCLUSION_PASSES) return line;
      if (pass > 0) met.push(line);
      const next = collapseWhitespace(exclude(line));
      // The pass that finds the line settled is counted at the line it ran on, the last one met.
      if (next === line) settled = { line, passes: 0 };
      line = next;
    }
    for (let k = met.length - 1, passes = settled.passes + 1; k >= 0; k--, passes++) {
      settledFrom.set(met[k] as string, { line: settled.line, passes });
    }
    return settled.line;
  };
}

/** The line a line settles to, and how many exclusion passes it takes to get there and see it settled. */
interface Settled {
  readonly line: string;
  readonly passes: number;
}

// Most lines are already clean; testing first avoids building a new string for each of them.
const UNTIDY_SPACE = /[^\S ]| {2}|^ | $/;
const OTHER_SPACE = /[^\S ]/;
// With spaces only (as after exclusions, which only remove text): the leading and trailing ones, and
// each one followed by another, in one pass instead of a replace and a trim.
const EXTRA_SPACE = /^ +| +$| (?= )/g;

function collapseWhitespace(line: string): string {
  if (!UNTIDY_SPACE.test(line)) return line;
  return OTHER_SPACE.test(line) ? line.replace(WHITESPACE_RUN, ' ').trim() : line.replace(EXTRA_SPACE, '');
}
