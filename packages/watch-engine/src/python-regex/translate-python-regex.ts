import { codePointNamed } from './character-names.ts';
import {
  ASCII_DIGIT,
  ASCII_SPACE,
  ASCII_WORD,
  type CodePointRanges,
  complementRanges,
  formatRanges,
  hexEscape,
  mergeRanges,
  PYTHON_SPACE,
  unicodeWordRanges,
} from './code-point-ranges.ts';
import { RegexProblem } from './regex-problem.ts';

/** Inline flags in force at a point of the pattern. `x` and `a` are applied here; RE2 gets i, m and s. */
interface Flags {
  readonly i: boolean;
  readonly m: boolean;
  readonly s: boolean;
  readonly x: boolean;
  readonly a: boolean;
}

interface Atom {
  readonly text: string;
  /** Python refuses to repeat anchors and empty items ("nothing to repeat"). */
  readonly repeatable: boolean;
  /** The character the atom stands for, when it is one literal character. */
  readonly literal?: number;
}

/** A pattern in RE2 syntax, and text that every match of it contains, when there is such text. */
export interface Translation {
  readonly source: string;
  readonly requiredText?: RequiredText;
}

/**
 * Literal text at the top level of the pattern that no quantifier makes optional and no alternative
 * avoids, so every match contains it; compared ignoring case (then it is ASCII only) under (?i).
 */
export interface RequiredText {
  readonly text: string;
  readonly ignoreCase: boolean;
  /** Every match starts with the text: the pattern begins with it. */
  readonly leading: boolean;
}

type ClassItem =
  | { readonly kind: 'char'; readonly cp: number }
  | { readonly kind: 'category'; readonly letter: string };

const RE2_MAX_REPEAT = 1000;
const FLAG_LETTERS = 'aiLmsux';
const VERBOSE_SPACE = ' \t\n\r\v\f';
const SIMPLE_ESCAPES: Record<string, number> = { a: 0x07, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

/**
 * Translates a pattern written for Python's `re` module into RE2 syntax with the same meaning, or throws
 * a RegexProblem naming what cannot run on RE2. Python's Unicode-aware \d, \w and \s become explicit
 * Unicode classes (RE2's are ASCII-only); \b and \B keep RE2's ASCII word boundary.
 */
export function translatePythonRegex(pattern: string): Translation {
  return new Translator(pattern).translate();
}

class Translator {
  private pos = 0;
  private depth = 0;
  private readonly groupNames = new Set<string>();
  /** The longest required run of literal characters at the top level so far (see RequiredText). */
  private required = '';
  private requiredLeads = false;
  private topLevelAlternatives = false;

  constructor(private readonly pattern: string) {}

  translate(): Translation {
    const flags = this.readGlobalFlags();
    const body = this.alternation(flags);
    if (this.pos < this.pattern.length) {
      throw this.syntax(`unbalanced parenthesis at position ${this.pos}`);
    }
    const re2Flags = `${flags.i ? 'i' : ''}${flags.m ? 'm' : ''}${flags.s ? 's' : ''}`;
    const source = re2Flags ? `(?${re2Flags})${body}` : body;
    return this.required === '' || this.topLevelAlternatives
      ? { source }
      : { source, requiredText: { text: this.required, ignoreCase: flags.i, leading: this.requiredLeads } };
  }

  private readGlobalFlags(): Flags {
    let flags: Flags = { i: false, m: false, s: false, x: false, a: false };
    for (;;) {
      const match = /^\(\?([a-zA-Z]+)\)/.exec(this.pattern.slice(this.pos));
      if (!match?.[1] || ![...match[1]].every((letter) => FLAG_LETTERS.includes(letter))) return flags;
      flags = this.applyFlagLetters(flags, match[1], '', this.pos);
      this.pos += match[0].length;
      if (flags.x) this.skipVerbose(flags);
    }
  }

  private applyFlagLetters(flags: Flags, on: string, off: string, at: number): Flags {
    if (on.includes('L')) {
      throw new RegexProblem(
        'unsupported_flag',
        `the locale flag (?L) at position ${at} only applies to byte patterns and is not supported`,
      );
    }
    if (on.includes('a') && on.includes('u')) {
      throw this.syntax(`bad inline flag at position ${at}: flags 'a' and 'u' are incompatible`);
    }
    for (const letter of off) {
      if (!'imsx'.includes(letter)) {
        throw this.syntax(`bad inline flag at position ${at}: cannot turn off flag '${letter}'`);
      }
      if (on.includes(letter)) {
        throw this.syntax(`bad inline flag at position ${at}: flag '${letter}' turned on and off`);
      }
    }
    const value = (letter: 'i' | 'm' | 's' | 'x', current: boolean) =>
      on.includes(letter) ? true : off.includes(letter) ? false : current;
    return {
      i: value('i', flags.i),
      m: value('m', flags.m),
      s: value('s', flags.s),
      x: value('x', flags.x),
      a: on.includes('a') ? true : on.includes('u') ? false : flags.a,
    };
  }

  private alternation(flags: Flags): string {
    const branches = [this.sequence(flags)];
    while (this.pattern[this.pos] === '|') {
      if (this.depth === 0) this.topLevelAlternatives = true;
      this.pos++;
      branches.push(this.sequence(flags));
    }
    return branches.join('|');
  }

  private sequence(flags: Flags): string {
    let out = '';
    let run = '';
    let atoms = 0;
    let runStart = 0;
    const endRun = () => {
      if (this.depth === 0 && run.length > this.required.length) {
        this.required = run;
        this.requiredLeads = runStart === 0;
      }
      run = '';
    };
    // Under (?i) only ASCII letters are compared ignoring case: their case folds are the same everywhere.
    const literalText = (atom: Atom) =>
      atom.literal === undefined || (flags.i && atom.literal > 0x7f)
        ? undefined
        : String.fromCodePoint(atom.literal);
    for (;;) {
      this.skipVerbose(flags);
      const c = this.pattern[this.pos];
      if (c === undefined || c === '|' || c === ')') {
        endRun();
        return out;
      }
      const atomAt = this.pos;
      const atom = this.atom(flags);
      this.skipVerbose(flags);
      const quantifier = this.quantifier();
      const text = literalText(atom);
      if (run === '') runStart = atoms;
      atoms++;
      if (quantifier === undefined) {
        if (text === undefined) endRun();
        else run += text;
        out += atom.text;
        continue;
      }
      // 'a+' still has one 'a' right after what comes before it; other quantifiers may leave it out.
      if (quantifier === '+' && text !== undefined) run += text;
      endRun();
      if (!atom.repeatable) throw this.syntax(`nothing to repeat at position ${atomAt}`);
      let suffix = '';
      if (this.pattern[this.pos] === '?') {
        suffix = '?';
        this.pos++;
      } else if (this.pattern[this.pos] === '+') {
        throw new RegexProblem(
          'unsupported_possessive',
          `possessive quantifier ${quantifier}+ at position ${this.pos - quantifier.length} is not supported: RE2 has no possessive quantifiers`,
        );
      }
      if (this.quantifierAt(this.pos) !== undefined) {
        throw this.syntax(`multiple repeat at position ${this.pos}`);
      }
      out += atom.text + quantifier + suffix;
    }
  }

  /** Reads a quantifier if one starts here, returned in RE2 syntax. */
  private quantifier(): string | undefined {
    const found = this.quantifierAt(this.pos);
    if (found === undefined) return undefined;
    this.pos = found.end;
    return found.text;
  }

  private quantifierAt(at: number): { text: string; end: number } | undefined {
    const c = this.pattern[at];
    if (c === '*' || c === '+' || c === '?') return { text: c, end: at + 1 };
    if (c !== '{') return undefined;
    const match = /^\{(\d*)(,(\d*))?\}/.exec(this.pattern.slice(at));
    if (!match || match[0] === '{}') return undefined;
    const [whole, lowText = '', comma, highText = ''] = match;
    const low = lowText === '' ? 0 : Number(lowText);
    const high = comma === undefined ? low : highText === '' ? undefined : Number(highText);
    if (high !== undefined && high < low) {
      throw this.syntax(`min repeat greater than max repeat at position ${at}`);
    }
    if (low > RE2_MAX_REPEAT || (high ?? 0) > RE2_MAX_REPEAT) {
      throw new RegexProblem(
        'too_complex',
        `repetition count at position ${at} is above ${RE2_MAX_REPEAT}, the most RE2 allows`,
      );
    }
    const text = high === low ? `{${low}}` : high === undefined ? `{${low},}` : `{${low},${high}}`;
    return { text, end: at + whole.length };
  }

  private atom(flags: Flags): Atom {
    const at = this.pos;
    const c = this.pattern[at] as string;
    switch (c) {
      case '(':
        return this.group(flags);
      case '[':
        return { text: this.characterClass(flags), repeatable: true };
      case '\\':
        return this.escape(flags);
      case '.':
        this.pos++;
        return { text: '.', repeatable: true };
      case '^':
      case '$':
        this.pos++;
        return { text: c, repeatable: false };
      case '*':
      case '+':
      case '?':
        throw this.syntax(`nothing to repeat at position ${at}`);
      case '{':
        if (this.quantifierAt(at) !== undefined) throw this.syntax(`nothing to repeat at position ${at}`);
        break;
    }
    const cp = this.pattern.codePointAt(at) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return { text: literal(cp), repeatable: true, literal: cp };
  }

  private group(flags: Flags): Atom {
    const open = this.pos;
    this.pos++;
    if (this.pattern[this.pos] !== '?') return this.groupBody(flags, open, '(');
    this.pos++;
    const kind = this.pattern[this.pos];
    const rest = this.pattern.slice(this.pos);
    if (kind === ':') {
      this.pos++;
      return this.groupBody(flags, open, '(?:');
    }
    if (rest.startsWith('P<')) {
      this.pos += 2;
      this.readGroupName(open);
      return this.groupBody(flags, open, '(');
    }
    if (rest.startsWith('P=')) {
      throw new RegexProblem(
        'unsupported_backreference',
        `backreference (?P=…) at position ${open} is not supported: RE2 has no backreferences`,
      );
    }
    if (kind === '#') {
      const close = this.pattern.indexOf(')', this.pos);
      if (close < 0) throw this.syntax(`missing ), unterminated comment at position ${open}`);
      this.pos = close + 1;
      return { text: '', repeatable: false };
    }
    if (kind === '=' || kind === '!') {
      throw new RegexProblem(
        'unsupported_lookaround',
        `lookahead (?${kind}…) at position ${open} is not supported: RE2 has no lookaround`,
      );
    }
    if (rest.startsWith('<=') || rest.startsWith('<!')) {
      throw new RegexProblem(
        'unsupported_lookaround',
        `lookbehind (?${rest.slice(0, 2)}…) at position ${open} is not supported: RE2 has no lookaround`,
      );
    }
    if (kind === '<') {
      throw this.syntax(`(?<name>…) at position ${open} is not Python syntax; write (?P<name>…)`);
    }
    if (kind === '>') {
      throw new RegexProblem(
        'unsupported_atomic_group',
        `atomic group (?>…) at position ${open} is not supported by RE2`,
      );
    }
    if (kind === '(') {
      throw new RegexProblem(
        'unsupported_conditional',
        `conditional group (?(…)…) at position ${open} is not supported: RE2 has no backreferences`,
      );
    }
    const scoped = /^([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest);
    const on = scoped?.[1] ?? '';
    const off = scoped?.[2] ?? '';
    if (!scoped || on + off === '' || ![...on, ...off].every((letter) => FLAG_LETTERS.includes(letter))) {
      throw this.syntax(`unknown extension (?${kind ?? ''} at position ${open}`);
    }
    if (scoped[3] === ')') {
      throw this.syntax(`global flags not at the start of the expression at position ${open}`);
    }
    const inner = this.applyFlagLetters(flags, on, off, open);
    this.pos += scoped[0].length;
    const re2On = [...'ims'].filter((letter) => inner[letter as 'i'] && !flags[letter as 'i']).join('');
    const re2Off = [...'ims'].filter((letter) => !inner[letter as 'i'] && flags[letter as 'i']).join('');
    const opener = re2On || re2Off ? `(?${re2On}${re2Off ? `-${re2Off}` : ''}:` : '(?:';
    return this.groupBody(inner, open, opener);
  }

  private readGroupName(open: number): void {
    const close = this.pattern.indexOf('>', this.pos);
    if (close < 0) throw this.syntax(`missing >, unterminated name at position ${this.pos}`);
    const name = this.pattern.slice(this.pos, close);
    if (!/^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(name)) {
      throw this.syntax(`bad character in group name '${name}' at position ${open}`);
    }
    if (this.groupNames.has(name)) {
      throw this.syntax(`redefinition of group name '${name}' at position ${open}`);
    }
    this.groupNames.add(name);
    this.pos = close + 1;
  }

  private groupBody(flags: Flags, open: number, opener: string): Atom {
    this.depth++;
    const body = this.alternation(flags);
    this.depth--;
    if (this.pattern[this.pos] !== ')') {
      throw this.syntax(`missing ), unterminated subpattern at position ${open}`);
    }
    this.pos++;
    return { text: `${opener}${body})`, repeatable: true };
  }

  private escape(flags: Flags): Atom {
    const at = this.pos;
    const c = this.pattern[at + 1];
    if (c === undefined) throw this.syntax('bad escape (end of pattern)');
    this.pos += 2;
    switch (c) {
      case 'A':
        return { text: '\\A', repeatable: false };
      case 'Z':
        return { text: '\\z', repeatable: false };
      case 'b':
      case 'B':
        return { text: `\\${c}`, repeatable: false };
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S':
        return { text: categoryOutsideClass(c, flags.a), repeatable: true };
    }
    if (c >= '1' && c <= '9') {
      const octal = /^[0-7]{3}/.exec(this.pattern.slice(at + 1));
      if (!octal) {
        throw new RegexProblem(
          'unsupported_backreference',
          `backreference \\${/^\d+/.exec(this.pattern.slice(at + 1))?.[0]} at position ${at} is not supported: RE2 has no backreferences`,
        );
      }
    }
    this.pos = at;
    const cp = this.codePointEscape(false);
    return { text: literal(cp), repeatable: true, literal: cp };
  }

  /** Reads an escape that stands for one character, at `\`, leaving pos after it. */
  private codePointEscape(inClass: boolean): number {
    const at = this.pos;
    const rest = this.pattern.slice(at + 1);
    const c = rest[0] as string;
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      this.pos += 2;
      return simple;
    }
    if (inClass && c === 'b') {
      this.pos += 2;
      return 0x08;
    }
    if (c === 'x' || c === 'u' || c === 'U') {
      const digits = c === 'x' ? 2 : c === 'u' ? 4 : 8;
      const hex = new RegExp(`^${c}([0-9a-fA-F]{${digits}})`).exec(rest)?.[1];
      if (hex === undefined) throw this.syntax(`incomplete escape \\${c} at position ${at}`);
      const cp = Number.parseInt(hex, 16);
      if (cp > 0x10ffff) throw this.syntax(`bad escape \\${c}${hex} at position ${at}`);
      this.pos += 2 + digits;
      return cp;
    }
    if (c === 'N') return this.namedCharacter(at);
    const octal = inClass || c === '0' ? /^[0-7]{1,3}/.exec(rest) : /^[0-7]{3}/.exec(rest);
    if (octal) {
      const cp = Number.parseInt(octal[0], 8);
      if (cp > 0o377)
        throw this.syntax(`octal escape value \\${octal[0]} outside of range 0-0o377 at position ${at}`);
      this.pos += 1 + octal[0].length;
      return cp;
    }
    if (/^[a-zA-Z0-9]/.test(c)) throw this.syntax(`bad escape \\${c} at position ${at}`);
    const cp = rest.codePointAt(0) as number;
    this.pos += cp > 0xffff ? 3 : 2;
    return cp;
  }

  /** `\N{NAME}` at `at`: the character of that Unicode name or alias, which RE2 matches as a literal. */
  private namedCharacter(at: number): number {
    if (this.pattern[at + 2] !== '{') throw this.syntax(`missing { at position ${at + 2}`);
    const close = this.pattern.indexOf('}', at + 3);
    const name = this.pattern.slice(at + 3, close < 0 ? undefined : close);
    if (name === '') throw this.syntax(`missing character name at position ${at + 3}`);
    if (close < 0) throw this.syntax(`missing }, unterminated name at position ${at + 3}`);
    const cp = codePointNamed(name);
    if (cp === undefined) throw this.syntax(`undefined character name '${name}' at position ${at}`);
    this.pos = close + 1;
    return cp;
  }

  private characterClass(flags: Flags): string {
    const open = this.pos;
    this.pos++;
    const negated = this.pattern[this.pos] === '^';
    if (negated) this.pos++;
    const ranges: [number, number][] = [];
    const properties: string[] = [];
    let first = true;
    for (;;) {
      const c = this.pattern[this.pos];
      if (c === undefined) throw this.syntax(`unterminated character set at position ${open}`);
      if (c === ']' && !first) break;
      first = false;
      const itemAt = this.pos;
      const low = this.classItem();
      const isRange =
        this.pattern[this.pos] === '-' && ![']', undefined].includes(this.pattern[this.pos + 1]);
      if (low.kind === 'category') {
        if (isRange) throw this.syntax(`bad character range at position ${itemAt}`);
        addCategory(low.letter, flags.a, ranges, properties);
        continue;
      }
      if (!isRange) {
        ranges.push([low.cp, low.cp]);
        continue;
      }
      this.pos++;
      const high = this.classItem();
      if (high.kind === 'category' || high.cp < low.cp) {
        throw this.syntax(`bad character range at position ${itemAt}`);
      }
      ranges.push([low.cp, high.cp]);
    }
    this.pos++;
    return `[${negated ? '^' : ''}${formatRanges(mergeRanges(ranges))}${properties.join('')}]`;
  }

  private classItem(): ClassItem {
    const c = this.pattern[this.pos];
    if (c !== '\\') {
      const cp = this.pattern.codePointAt(this.pos) as number;
      this.pos += cp > 0xffff ? 2 : 1;
      return { kind: 'char', cp };
    }
    const letter = this.pattern[this.pos + 1];
    if (letter !== undefined && 'dDwWsS'.includes(letter)) {
      this.pos += 2;
      return { kind: 'category', letter };
    }
    if (letter === undefined) throw this.syntax('bad escape (end of pattern)');
    return { kind: 'char', cp: this.codePointEscape(true) };
  }

  private skipVerbose(flags: Flags): void {
    if (!flags.x) return;
    for (;;) {
      const c = this.pattern[this.pos];
      if (c !== undefined && VERBOSE_SPACE.includes(c)) {
        this.pos++;
      } else if (c === '#') {
        const end = this.pattern.indexOf('\n', this.pos);
        this.pos = end < 0 ? this.pattern.length : end + 1;
      } else {
        return;
      }
    }
  }

  private syntax(message: string): RegexProblem {
    return new RegexProblem('syntax_error', message);
  }
}

function categoryOutsideClass(letter: string, ascii: boolean): string {
  if (!ascii) {
    switch (letter) {
      case 'd':
        return '\\p{Nd}';
      case 'D':
        return '\\P{Nd}';
      case 'w':
        return '[\\p{L}\\p{N}_]';
      case 'W':
        return '[^\\p{L}\\p{N}_]';
    }
  }
  const ranges = categoryRanges(letter.toLowerCase(), ascii);
  return `[${letter === letter.toUpperCase() ? '^' : ''}${formatRanges(ranges)}]`;
}

function addCategory(letter: string, ascii: boolean, ranges: [number, number][], properties: string[]): void {
  if (!ascii && letter === 'd') properties.push('\\p{Nd}');
  else if (!ascii && letter === 'D') properties.push('\\P{Nd}');
  else if (!ascii && letter === 'w') properties.push('\\p{L}\\p{N}_');
  else if (!ascii && letter === 'W') ranges.push(...complementRanges(unicodeWordRanges()));
  else {
    const base = categoryRanges(letter.toLowerCase(), ascii);
    for (const [lo, hi] of letter === letter.toUpperCase() ? complementRanges(base) : base)
      ranges.push([lo, hi]);
  }
}

function categoryRanges(letter: string, ascii: boolean): CodePointRanges {
  if (letter === 's') return ascii ? ASCII_SPACE : PYTHON_SPACE;
  return letter === 'd' ? ASCII_DIGIT : ASCII_WORD;
}

/** A code point as an RE2 literal: punctuation escaped, controls and spaces as hex escapes. */
function literal(cp: number): string {
  if (cp <= 0x20 || cp === 0x7f || (cp >= 0x80 && cp <= 0xa0)) return hexEscape(cp);
  const char = String.fromCodePoint(cp);
  return /[!-/:-@[-`{-~]/.test(char) ? `\\${char}` : char;
}
