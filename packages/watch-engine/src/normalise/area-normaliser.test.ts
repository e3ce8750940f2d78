import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type AreaOptions, DEFAULT_AREA_OPTIONS } from '../area-options.ts';
import {
  compactLines,
  contentHashOf,
  createAreaNormaliser,
  linesHaveCompactText,
  normaliseArea,
} from './normalise-area.ts';

const ALL_OPTIONS: AreaOptions = {
  ...DEFAULT_AREA_OPTIONS,
  excludeDates: true,
  excludeTimes: true,
  excludeNumbers: true,
  excludeWords: ['PR'],
  excludeRegexes: ['ab', String.raw`閲覧数\s*\d+`],
};

describe('an area normaliser remembers lines across versions', () => {
  test('lines that differ in what is excluded settle to the same line', () => {
    const normaliser = createAreaNormaliser(ALL_OPTIONS);
    expect(normaliser.lines('在庫 3 点 閲覧数 10\n在庫 12 点 閲覧数 7')).toEqual(['在庫 点', '在庫 点']);
    expect(normaliser.lines('2026年11月22日 在庫 40 点 PR')).toEqual(['在庫 点']);
  });

  test('a remembered line is not reused where fewer exclusion passes are left than it needs', () => {
    // Each pass removes one 'ab' layer: 'aaabbb' settles in three passes, ten layers never settle.
    const tenLayers = `${'a'.repeat(10)}${'b'.repeat(10)}`;
    const alone = createAreaNormaliser(ALL_OPTIONS).lines(tenLayers);
    expect(alone).toEqual(['aabb']);
    const normaliser = createAreaNormaliser(ALL_OPTIONS);
    expect(normaliser.lines('aaabbb\naabb')).toEqual([]);
    expect(normaliser.lines(tenLayers)).toEqual(alone);
  });

  test('normalising versions with one normaliser gives what normalising each alone gives', () => {
    const piece = fc.constantFrom(
      '在庫',
      '3',
      '12',
      ' ',
      'ab',
      'aab',
      'b',
      'PR',
      '閲覧数 5',
      '11/22',
      '14:05',
    );
    const content = fc
      .array(fc.array(piece, { maxLength: 8 }), { maxLength: 8 })
      .map((lines) => lines.map((line) => line.join('')).join('\n'));
    fc.assert(
      fc.property(fc.array(content, { minLength: 1, maxLength: 4 }), (versions) => {
        const normaliser = createAreaNormaliser(ALL_OPTIONS);
        for (const version of versions) {
          expect(normaliser.lines(version)).toEqual(normaliseArea(version, ALL_OPTIONS).lines);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('hasCompactText', () => {
  const normaliser = createAreaNormaliser(ALL_OPTIONS);
  const compact = compactLines(normaliser.lines('在庫 3 点\n価格 円'));

  test('holds exactly when the content hashes would be equal', () => {
    const same = '在庫 12 点 価格\r\n 円';
    const other = '在庫 12 点\n価格 ドル';
    expect(normaliser.hasCompactText([same], compact)).toBe(true);
    expect(normaliser.hasCompactText([other], compact)).toBe(false);
    expect(normaliser.hasCompactText(['在庫 点'], compact)).toBe(false);
    expect(normaliser.hasCompactText(['在庫 点\n価格 円\n追加'], compact)).toBe(false);
    expect(contentHashOf(compact)).toBe(normaliseArea(same, ALL_OPTIONS).contentHash);
  });

  test('reads content in pieces cut anywhere, a line break pair included', () => {
    expect(normaliser.hasCompactText(['在庫 1', '2 点\r', '\n価', '格 円'], compact)).toBe(true);
    expect(normaliser.hasCompactText(['在庫 1', '2 点\r', '\n価', '格 ドル'], compact)).toBe(false);
  });

  test('stops at the first line that differs, before later pieces are made', () => {
    const made: string[] = [];
    function* pieces() {
      for (const piece of ['在庫 点\n', '価格 ドル\n', '追加\n']) {
        made.push(piece);
        yield piece;
      }
    }
    expect(normaliser.hasCompactText(pieces(), compact)).toBe(false);
    expect(made).toEqual(['在庫 点\n', '価格 ドル\n']);
  });
});

describe('linesHaveCompactText', () => {
  test('normalised lines compare with compact text whatever their line breaks and spaces', () => {
    const compact = compactLines(['在庫 点', '価格 円']);
    expect(linesHaveCompactText(['在庫', '点 価格 円'], compact)).toBe(true);
    expect(linesHaveCompactText(['在庫 点', '価格'], compact)).toBe(false);
    expect(linesHaveCompactText(['在庫 点', '価格 円', '追加'], compact)).toBe(false);
    expect(linesHaveCompactText([], '')).toBe(true);
  });
});
