import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileUserRegex, removeUserRegexMatches, validatePythonRegex } from './user-regex.ts';

function matchesOf(pattern: string, text: string): string[] {
  const matcher = compileUserRegex(pattern).re2.matcher(text);
  const found: string[] = [];
  while (matcher.find()) {
    const match = matcher.group() ?? '';
    if (match !== '') found.push(match);
  }
  return found;
}

// Expected matches are what Python 3.11's re.finditer gives for the same pattern and text (empty
// matches left out), so each row checks that the translation keeps Python's meaning.
const MATCH_TABLE: readonly [pattern: string, text: string, matches: string[]][] = [
  [String.raw`\d+`, '価格 1,234円 と １２３ 個', ['1', '234', '１２３']],
  [String.raw`\w+`, 'hello 世界_1 ü!', ['hello', '世界_1', 'ü']],
  [String.raw`\s+`, 'a \u3000b\u00a0c', [' \u3000', '\u00a0']],
  [String.raw`\S+`, 'a \u3000b\u00a0c', ['a', 'b', 'c']],
  ['(?i)sale', 'SALE Sale sale', ['SALE', 'Sale', 'sale']],
  [String.raw`(?P<price>\d+)円`, '1200円 と 300円', ['1200円', '300円']],
  [String.raw`\Aabc`, 'abc abc', ['abc']],
  [String.raw`abc\Z`, 'abc abc', ['abc']],
  ['^item', 'item item', ['item']],
  [String.raw`(?m)^\d+$`, '1\nx2\n30', ['1', '30']],
  ['(?s)a.b', 'a\nb', ['a\nb']],
  ['a.b', 'a\nb axb', ['axb']],
  [String.raw`(?x) \d+ \s* 円  # price`, '1200 円 5円', ['1200 円', '5円']],
  ['colou?r', 'color colour', ['color', 'colour']],
  ['a{2,3}', 'aaaa a aa', ['aaa', 'aa']],
  ['a{,2}b', 'aaab b', ['aab', 'b']],
  ['x{2}', 'xxxxx', ['xx', 'xx']],
  [String.raw`[^\W\d_]+`, 'abc 123 _ 日本語 x1', ['abc', '日本語', 'x']],
  [String.raw`[\W_]+`, 'a-b_c!!d', ['-', '_', '!!']],
  [String.raw`[\d,]+`, '1,234 and 5', ['1,234', '5']],
  [String.raw`[a\-z]+`, 'a-z b', ['a-z']],
  [String.raw`\bcat\b`, 'cat concat cat.', ['cat', 'cat']],
  [String.raw`\u5728\u5eab`, '在庫あり', ['在庫']],
  [String.raw`\x41+`, 'AAB', ['AA']],
  [String.raw`\101`, 'A', ['A']],
  [String.raw`[\1]`, 'a\u0001', ['\u0001']],
  ['(?i:new)s', 'NEWs NEWS', ['NEWs']],
  ['a+?', 'aaa', ['a', 'a', 'a']],
  ['(?:ab)+', 'ababx', ['abab']],
  ['[]a]+', 'a]b', ['a]']],
  [String.raw`\.\*\+`, 'a.*+', ['.*+']],
  [String.raw`(?#comment)\d`, 'x9', ['9']],
  [String.raw`残り\d+(?:個|点)`, '残り5個 残り12点', ['残り5個', '残り12点']],
  ['(a|b)c', 'ac bc cc', ['ac', 'bc']],
  [String.raw`\$\d+(?:\.\d\d)?`, 'now $12.50, was $15', ['$12.50', '$15']],
  [String.raw`(?a)\w+`, 'abc 日本', ['abc']],
  [String.raw`(?a)\d+`, '12 １２', ['12']],
  ['(?i)straße', 'STRASSE straße', ['straße']],
  [String.raw`\t`, 'a\tb', ['\t']],
  [String.raw`[\s]+`, 'a \u3000b', [' \u3000']],
  [String.raw`\D+`, 'ab12cd', ['ab', 'cd']],
  [String.raw`\W`, 'a b', [' ']],
  ['.', '😀a', ['😀', 'a']],
  ['{', 'a{b', ['{']],
  ['a{', 'a{b', ['a{']],
  ['a{x}', 'a{x}', ['a{x}']],
  [String.raw`\N{EM DASH}+`, 'a——b—', ['——', '—']],
  [String.raw`(?i)\N{LATIN SMALL LETTER A}`, 'Aa', ['A', 'a']],
  [String.raw`[\N{HIRAGANA LETTER A}-\N{hiragana letter o}]+`, 'あいうえおか', ['あいうえお']],
  [String.raw`\N{CJK UNIFIED IDEOGRAPH-5728}\N{CJK UNIFIED IDEOGRAPH-5EAB}`, '在庫あり', ['在庫']],
  [String.raw`\N{HANGUL SYLLABLE GA}`, '가나', ['가']],
  [String.raw`\N{GRINNING FACE}`, 'x😀', ['😀']],
  [String.raw`a\N{LINE FEED}`, 'a\nb', ['a\n']],
  [String.raw`(?x) \N{EM DASH} +`, '——', ['——']],
  [String.raw`\N{FULLWIDTH DIGIT ONE}\N{FULLWIDTH DIGIT TWO}`, '１２3', ['１２']],
];

// A \N{…} outside the first planes reads the character-name tables span by span on its first
// lookup, which can take seconds while the other test files load the machine.
describe('Python-syntax patterns run on RE2 with Python meaning', { timeout: 30_000 }, () => {
  test.each(MATCH_TABLE)('%s on %j', (pattern, text, matches) => {
    expect(matchesOf(pattern, text)).toEqual(matches);
  });
});

// Valid Python that RE2 cannot run safely, and text that is not Python syntax at all.
const REFUSED_TABLE: readonly [pattern: string, code: string, messagePart: string][] = [
  ['(?=a)', 'unsupported_lookaround', 'lookahead'],
  ['(?!a)', 'unsupported_lookaround', 'lookahead'],
  ['(?<=a)b', 'unsupported_lookaround', 'lookbehind'],
  ['(?<!a)b', 'unsupported_lookaround', 'lookbehind'],
  ['(?P<x>a)(?P=x)', 'unsupported_backreference', '(?P=…)'],
  [String.raw`(a)\1`, 'unsupported_backreference', 'backreference \\1'],
  [String.raw`(a)(b)\2`, 'unsupported_backreference', 'backreference \\2'],
  ['a*+', 'unsupported_possessive', 'possessive'],
  ['a++', 'unsupported_possessive', 'possessive'],
  ['a{2}+', 'unsupported_possessive', 'possessive'],
  ['(?>a)', 'unsupported_atomic_group', 'atomic group'],
  ['(a)?(?(1)b|c)', 'unsupported_conditional', 'conditional'],
  ['(?L)a', 'unsupported_flag', 'locale'],
  ['a{1001}', 'too_complex', 'above 1000'],
  ['(?<n>a)', 'syntax_error', '(?P<name>…)'],
  [String.raw`\q`, 'syntax_error', 'bad escape \\q'],
  [String.raw`\p{L}`, 'syntax_error', 'bad escape \\p'],
  ['ab(?i)c', 'syntax_error', 'global flags not at the start'],
  ['*a', 'syntax_error', 'nothing to repeat'],
  ['^*', 'syntax_error', 'nothing to repeat'],
  ['a**', 'syntax_error', 'multiple repeat'],
  ['a{3,2}', 'syntax_error', 'min repeat greater than max repeat'],
  ['(a', 'syntax_error', 'missing ), unterminated subpattern'],
  ['a)', 'syntax_error', 'unbalanced parenthesis'],
  ['[a', 'syntax_error', 'unterminated character set'],
  ['[z-a]', 'syntax_error', 'bad character range'],
  [String.raw`[\d-z]`, 'syntax_error', 'bad character range'],
  ['(?P<1>a)', 'syntax_error', 'bad character in group name'],
  ['(?P<a>x)(?P<a>y)', 'syntax_error', 'redefinition of group name'],
  [String.raw`\x4`, 'syntax_error', 'incomplete escape'],
  [String.raw`\N`, 'syntax_error', 'missing { at position 2'],
  [String.raw`\N{}`, 'syntax_error', 'missing character name at position 3'],
  [String.raw`\N{EM DASH`, 'syntax_error', 'missing }, unterminated name at position 3'],
  [String.raw`a\N{NOT A NAME}`, 'syntax_error', "undefined character name 'NOT A NAME' at position 1"],
  // A named sequence is several characters: Python's re refuses it too.
  [String.raw`\N{LATIN CAPITAL LETTER A WITH MACRON AND GRAVE}`, 'syntax_error', 'undefined character name'],
  ['\\', 'syntax_error', 'end of pattern'],
  ['', 'empty_pattern', 'empty'],
  ['a'.repeat(1001), 'too_long', 'longer than 1000'],
];

describe('patterns that cannot run are refused with a message naming the problem', () => {
  test.each(REFUSED_TABLE)('%s', (pattern, code, messagePart) => {
    const result = validatePythonRegex(pattern);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe(code);
    expect(result.message).toContain(messagePart);
  });
});

describe('validatePythonRegex', () => {
  test('returns the RE2 source the pattern runs as', () => {
    expect(validatePythonRegex(String.raw`(?P<year>\d{4})年\Z`)).toEqual({
      ok: true,
      source: String.raw`(\p{Nd}{4})年\z`,
    });
    expect(validatePythonRegex('(?i)sale')).toEqual({ ok: true, source: '(?i)sale' });
  });

  test('a nested quantifier that backtracking engines take exponential time on runs in linear time', () => {
    // (a+)+$ against 'aaaa…b' is the classic catastrophic case for Python's re; RE2 has no backtracking.
    const regex = compileUserRegex('(a+)+$');
    const text = `${'a'.repeat(100_000)}b`;
    expect(regex.re2.test(text)).toBe(false);
    expect(removeUserRegexMatches(regex, 'a'.repeat(100_000))).toBe('');
  });
});

describe('removeUserRegexMatches', () => {
  test('removes every non-empty match and keeps the rest', () => {
    expect(removeUserRegexMatches(compileUserRegex(String.raw`\d+`), '在庫 12 個 / 3')).toBe('在庫  個 / ');
    expect(removeUserRegexMatches(compileUserRegex('x*'), 'axbxx')).toBe('ab');
    expect(removeUserRegexMatches(compileUserRegex('zzz'), 'abc')).toBe('abc');
  });

  test('a pattern with required text removes every match, and stops where the text no longer occurs', () => {
    const views = compileUserRegex(String.raw`閲覧数\s*\d+`);
    expect(removeUserRegexMatches(views, 'A 閲覧数 1 B 閲覧数 22 C')).toBe('A  B  C');
    expect(removeUserRegexMatches(views, 'A 閲覧数 1 B 閲覧数 C')).toBe('A  B 閲覧数 C');
  });
});

// Text every match contains lets lines without it skip RE2; the check may only ever say 'cannot match'
// where RE2 finds no match.
const REQUIRED_TEXT_TABLE: readonly [pattern: string, text: string | undefined, ignoreCase?: boolean][] = [
  [String.raw`閲覧数\s*\d+`, '閲覧数', false],
  [String.raw`(?i)ref=\w+`, 'ref=', true],
  [String.raw`\d+ views`, ' views', false],
  ['colou?r', 'colo', false],
  ['ab+c', 'ab', false],
  ['(?:x|y)abc', 'abc', false],
  [String.raw`\.com\b`, '.com', false],
  [String.raw`\x41B`, 'AB', false],
  ['(?x) a b  # comment', 'ab', false],
  [String.raw`(?i)価格\d+`, undefined],
  ['a|b', undefined],
  ['x*', undefined],
  ['a{2}', undefined],
];

describe('text every match contains', () => {
  test.each(REQUIRED_TEXT_TABLE)('%s needs %s', (pattern, text, ignoreCase) => {
    const regex = compileUserRegex(pattern);
    if (text === undefined) {
      expect(regex.mayMatch('')).toBe(true);
      return;
    }
    expect(regex.mayMatch(`__${text}__`)).toBe(true);
    expect(regex.mayMatch(`__${text.slice(1)}__`)).toBe(false);
    expect(regex.mayMatch(`__${text.toUpperCase()}__`)).toBe(ignoreCase || text.toUpperCase() === text);
  });

  test('a pattern that starts with its required text is searched from where the text first occurs', () => {
    expect(compileUserRegex(String.raw`(?i)ref=\w+`).firstMatchFrom('x ſ REF=1 ref=2')).toBe(4);
    expect(compileUserRegex(String.raw`\d+ views`).firstMatchFrom('a 12 views')).toBe(0);
    expect(compileUserRegex(String.raw`\bref=\w+`).firstMatchFrom('a ref=1')).toBe(0);
    expect(removeUserRegexMatches(compileUserRegex(String.raw`(?i)ref=\w+`), 'a Ref=1 b ref=2')).toBe(
      'a  b ',
    );
  });

  test('a line it rules out never matches', () => {
    const patterns = [...REQUIRED_TEXT_TABLE.map(([pattern]) => pattern), '(?i)sk', '^PR', String.raw`\d+円`];
    const piece = fc.constantFrom('ref=', 'REF=', 'Ref', 'sk', 'SK', '\u212a', '\u017f', 'colo', 'color');
    const others = fc.constantFrom(
      '閲覧数',
      ' views',
      'abc',
      'abbc',
      '.com',
      'AB',
      'ab',
      '価格12',
      'PR',
      '3円',
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.array(fc.oneof(piece, others), { maxLength: 6 }),
        (pattern, pieces) => {
          const regex = compileUserRegex(pattern);
          const text = pieces.join('');
          if (!regex.mayMatch(text)) expect(regex.re2.test(text)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
