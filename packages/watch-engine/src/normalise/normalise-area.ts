import { createHash } from 'node:crypto';
import type { AreaOptions } from '../area-options.ts';
import { DATE_FORMS } from '../exclusion/date-forms.ts';
import { excludedWordsPattern } from '../exclusion/excluded-words.ts';
import { formRemover } from '../exclusion/exclusion-form.ts';
import { NUMBER_FORM } from '../exclusion/number-forms.ts';
import { TIME_FORMS } from '../exclusion/time-forms.ts';
import { compileUserRegex, removeUserRegexMatches } from '../python-regex/user-regex.ts';

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
// bidi marks) and control characters other than tabs and line breaks.
const INVISIBLE = /[[\p{Cc}\p{Cf}]--[\t\n\v\f\r\u0085]]/gv;
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
// JavaScript's \s already covers Unicode spaces (NBSP, U+3000); without the u flag it runs faster.
const WHITESPACE_RUN = /\s+/g;
// Removing one match can join text into a new match ('aabb' without 'ab'); repeating until nothing
// changes keeps normalisation idempotent. Real text settles in one or two passes.
const MAX_EXCLUSION_PASSES = 8;

/** Normalises extracted area content (see extractAreaContent) with the area's options. */
export function normaliseArea(content: string, options: AreaOptions): NormalisedArea {
  return createAreaNormaliser(options)(content);
}

/**
 * A normaliser for one set of options. It remembers each distinct line, so normalising the previous,
 * current and past versions of an area, which share most lines, costs little more than one of them.
 */
export function createAreaNormaliser(options: AreaOptions): (content: string) => NormalisedArea {
  const normaliseLine = lineNormaliser(options);
  const lineCache = new Map<string, string>();
  return (content) => {
    const lines: string[] = [];
    for (const raw of content.replace(INVISIBLE, '').split(LINE_BREAK)) {
      let line = lineCache.get(raw);
      if (line === undefined) {
        line = normaliseLine(raw);
        lineCache.set(raw, line);
      }
      if (line !== '') lines.push(line);
    }
    const text = lines.join('\n');
    return { text, lines, contentHash: contentHashOf(text) };
  };
}

/** The text with all whitespace removed: what 'no change' is decided on. */
export function compactText(text: string): string {
  return text.replace(WHITESPACE_RUN, '');
}

function contentHashOf(text: string): string {
  return createHash('sha256').update(compactText(text)).digest('hex');
}

function lineNormaliser(options: AreaOptions): (line: string) => string {
  const userRegexes = options.excludeRegexes.map(compileUserRegex);
  const words = excludedWordsPattern(options.excludeWords);
  const removeForms = formRemover([
    ...(options.excludeDates ? DATE_FORMS : []),
    ...(options.excludeTimes ? TIME_FORMS : []),
    ...(options.excludeNumbers ? [NUMBER_FORM] : []),
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
  return (raw) => {
    let line = collapseWhitespace(raw.normalize('NFC'));
    if (!excludes) return line;
    for (let pass = 0; pass < MAX_EXCLUSION_PASSES && line !== ''; pass++) {
      const next = collapseWhitespace(exclude(line));
      if (next === line) break;
      line = next;
    }
    return line;
  };
}

// Most lines are already clean; testing first avoids building a new string for each of them.
const UNTIDY_SPACE = /[^\S ]| {2}|^ | $/;

function collapseWhitespace(line: string): string {
  return UNTIDY_SPACE.test(line) ? line.replace(WHITESPACE_RUN, ' ').trim() : line;
}
