import { RE2JS } from 're2js';
import { RegexProblem, type RegexProblemCode } from './regex-problem.ts';
import { type RequiredText, type Translation, translatePythonRegex } from './translate-python-regex.ts';

export const MAX_PATTERN_LENGTH = 1000;

export interface RegexRefusal {
  readonly ok: false;
  readonly code: RegexProblemCode;
  readonly message: string;
}

export type PythonRegexValidation = { readonly ok: true; readonly source: string } | RegexRefusal;

/** A user pattern compiled for RE2 (linear time): no pattern can hang a worker. */
export interface UserRegex {
  readonly pattern: string;
  readonly re2: RE2JS;
  /**
   * False when the text cannot match: it lacks text every match contains. RE2 skips ahead only to text
   * compared case-sensitively, and each call costs more than this check, so most lines are spared it.
   */
  readonly mayMatch: (text: string) => boolean;
  /** Whether mayMatch looks for such text (otherwise it is always true). */
  readonly screens: boolean;
  /** Where the first match can start at the earliest: where the text it starts with first occurs. */
  readonly firstMatchFrom: (text: string) => number;
}

const COMPILED_CACHE_SIZE = 500;
const compiled = new Map<string, UserRegex | RegexRefusal>();

/**
 * Checks a pattern written in Python `re` syntax and returns the RE2 source it runs as, or a code and a
 * message naming what is wrong. The registration API calls this for exclude regexes and re/not_re rules.
 */
export function validatePythonRegex(pattern: string): PythonRegexValidation {
  const result = compileCached(pattern);
  return 're2' in result ? { ok: true, source: result.re2.pattern() } : result;
}

/** Compiles a pattern that validatePythonRegex accepts; throws RegexProblem otherwise. */
export function compileUserRegex(pattern: string): UserRegex {
  const result = compileCached(pattern);
  if ('re2' in result) return result;
  throw new RegexProblem(result.code, result.message);
}

function compileCached(pattern: string): UserRegex | RegexRefusal {
  const cached = compiled.get(pattern);
  if (cached) {
    // Re-inserting keeps the map in least-recently-used order for eviction.
    compiled.delete(pattern);
    compiled.set(pattern, cached);
    return cached;
  }
  const result = compile(pattern);
  compiled.set(pattern, result);
  if (compiled.size > COMPILED_CACHE_SIZE) compiled.delete(compiled.keys().next().value as string);
  return result;
}

function compile(pattern: string): UserRegex | RegexRefusal {
  if (pattern.length === 0) return refuse('empty_pattern', 'the pattern is empty');
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return refuse('too_long', `the pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  let translation: Translation;
  try {
    translation = translatePythonRegex(pattern);
  } catch (error) {
    if (error instanceof RegexProblem) return refuse(error.code, error.message);
    throw error;
  }
  try {
    const re2 = RE2JS.compile(translation.source);
    const required = translation.requiredText;
    const find = required && finder(required);
    return {
      pattern,
      re2,
      mayMatch: find ? (text) => find(text) >= 0 : () => true,
      screens: find !== undefined,
      firstMatchFrom: find && required?.leading ? (text) => Math.max(find(text), 0) : () => 0,
    };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return /repeat|too large|program size/i.test(detail)
      ? refuse('too_complex', `the pattern is too complex for RE2: ${detail}`)
      : refuse('syntax_error', `the pattern cannot be compiled: ${detail}`);
  }
}

function refuse(code: RegexProblemCode, message: string): RegexRefusal {
  return { ok: false, code, message };
}

/** The index of the first occurrence of the required text, or -1. */
function finder({ text: needle, ignoreCase }: RequiredText): (text: string) => number {
  if (!ignoreCase) return (text) => text.indexOf(needle);
  // The needle is ASCII: a case-insensitive 'u' regex accepts every case fold RE2 accepts (K for k, ſ
  // for s), so it finds the text no later than RE2 would.
  const pattern = new RegExp(needle.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'iu');
  return (text) => text.search(pattern);
}

/** Whether the pattern matches anywhere in `text` (Python's re.search). */
export function searchUserRegex(regex: UserRegex, text: string): boolean {
  return regex.mayMatch(text) && regex.re2.test(text);
}

/** Removes every non-empty match, left to right and non-overlapping (Python's re.sub with ''). */
export function removeUserRegexMatches(regex: UserRegex, text: string): string {
  if (!regex.mayMatch(text)) return text;
  // Unscreened, test() on RE2's DFA (no capture bookkeeping) spares most lines, which do not match at
  // all, the matcher; a line with the text every match contains mostly matches, so it goes straight on.
  if (!regex.screens && !regex.re2.test(text)) return text;
  const matcher = regex.re2.matcher(text);
  let kept = '';
  let from = 0;
  for (let found = matcher.find(regex.firstMatchFrom(text)); found; found = matcher.find()) {
    const start = matcher.start();
    const end = matcher.end();
    if (end === start) continue;
    kept += text.slice(from, start);
    from = end;
    // The next match lies after this one and contains the required text too: without it, none is left.
    if (regex.screens && !regex.mayMatch(text.slice(end))) break;
  }
  return kept + text.slice(from);
}
