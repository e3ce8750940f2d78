import { createRequire } from 'node:module';

type UnicodeNames = typeof import('unicode-name');
// The package's tables are 1.6 MB of source: loaded on the first \N{…} a pattern holds, not with
// every service that imports the engine.
let unicodeNames: UnicodeNames | undefined;
const namesPackage = (): UnicodeNames =>
  (unicodeNames ??= createRequire(import.meta.url)('unicode-name') as UnicodeNames);

// Names that are a prefix and the code point in hex ('CJK UNIFIED IDEOGRAPH-4E00', 'TANGUT
// IDEOGRAPH-17000'), read straight from the name. Hangul syllables are named after their jamo: their
// 11,172 names are read together on the first lookup of one.
const NAME_WITH_CODE_POINT = /^.+-([0-9A-F]{4,6})$/;
const HANGUL_SYLLABLES: readonly [number, number] = [0xac00, 0xd7a3];
// Every other named character lies in these spans: the first two planes without the ideograph, Hangul,
// Tangut and private use blocks (whose names are made as above or who have none), then the tags and
// variation selectors of plane 14.
const NAMED_SPANS: readonly (readonly [number, number])[] = [
  [0x0000, 0x33ff],
  [0x4dc0, 0x4dff],
  [0xa000, 0xabff],
  [0xd7b0, 0xd7ff],
  [0xf900, 0x16fff],
  [0x18b00, 0x1ffff],
  [0xe0000, 0xe01ef],
];

// Names read so far, span by span: a lookup reads spans only until it finds its name, so the common
// ones (Latin, punctuation, kana in the first span) cost a few ms, and only an unknown name reads all.
const byName = new Map<string, number>();
let spansRead = 0;
let hangulRead = false;

/**
 * The code point a Unicode character name or alias stands for, as Python's unicodedata.lookup reads it
 * (letter case ignored), or undefined when no single character has that name.
 */
export function codePointNamed(name: string): number | undefined {
  const { unicodeBaseName } = namesPackage();
  const wanted = name.toUpperCase();
  const hex = NAME_WITH_CODE_POINT.exec(wanted)?.[1];
  if (hex !== undefined) {
    const cp = Number.parseInt(hex, 16);
    if (cp <= 0x10ffff && unicodeBaseName(cp) === wanted) return cp;
  }
  if (wanted.startsWith('HANGUL SYLLABLE ')) {
    if (!hangulRead) readNames(HANGUL_SYLLABLES);
    hangulRead = true;
    return byName.get(wanted);
  }
  while (!byName.has(wanted)) {
    const span = NAMED_SPANS[spansRead];
    if (span === undefined) return undefined;
    readNames(span);
    spansRead++;
  }
  return byName.get(wanted);
}

/** Adds the names and aliases of the characters in one span to byName. */
function readNames([first, last]: readonly [number, number]): void {
  const { unicodeAliases, unicodeBaseName } = namesPackage();
  for (let cp = first; cp <= last; cp++) {
    const name = unicodeBaseName(cp);
    if (name !== undefined) byName.set(name, cp);
    const aliases = unicodeAliases(cp);
    if (aliases === undefined) continue;
    for (const list of Object.values(aliases)) for (const alias of list ?? []) byName.set(alias, cp);
  }
}
