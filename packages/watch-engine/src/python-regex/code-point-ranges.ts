/** Inclusive code point ranges, sorted and merged; how character classes are built for RE2. */
export type CodePointRanges = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;
const SURROGATES: readonly [number, number] = [0xd800, 0xdfff];

export function mergeRanges(ranges: Iterable<readonly [number, number]>): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

/** Everything not in `ranges`, leaving out the surrogate block, which is no character RE2 accepts. */
export function complementRanges(ranges: CodePointRanges): [number, number][] {
  const result: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of mergeRanges([...ranges, SURROGATES])) {
    if (lo > next) result.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

export function formatRanges(ranges: CodePointRanges): string {
  return ranges.map(([lo, hi]) => (lo === hi ? hexEscape(lo) : `${hexEscape(lo)}-${hexEscape(hi)}`)).join('');
}

export function hexEscape(codePoint: number): string {
  return `\\x{${codePoint.toString(16)}}`;
}

/** Python's Unicode `\s`: str.isspace() characters. */
export const PYTHON_SPACE: CodePointRanges = mergeRanges([
  [0x09, 0x0d],
  [0x1c, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
]);

/** Python's `\s` under the ASCII flag: [ \t\n\r\f\v]. */
export const ASCII_SPACE: CodePointRanges = mergeRanges([
  [0x09, 0x0d],
  [0x20, 0x20],
]);

export const ASCII_DIGIT: CodePointRanges = [[0x30, 0x39]];

export const ASCII_WORD: CodePointRanges = mergeRanges([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);

let unicodeWordCache: [number, number][] | undefined;

/**
 * Python's Unicode `\w` as explicit ranges. Only a negated `\W` inside a class needs it (RE2 cannot
 * intersect properties), so it is computed on first use from the runtime's Unicode tables.
 */
export function unicodeWordRanges(): CodePointRanges {
  if (!unicodeWordCache) {
    const word = /[\p{L}\p{N}_]/u;
    const ranges: [number, number][] = [];
    for (let cp = 0; cp <= MAX_CODE_POINT; cp++) {
      if (cp === 0xd800) cp = 0xe000;
      if (word.test(String.fromCodePoint(cp))) ranges.push([cp, cp]);
    }
    unicodeWordCache = mergeRanges(ranges);
  }
  return unicodeWordCache;
}
