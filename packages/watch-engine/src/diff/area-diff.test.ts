import { describe, expect, test } from 'vitest';
import { type AreaDiff, diffArea } from './area-diff.ts';
import { diffLineArrays } from './line-diff.ts';
import { wordTokens } from './word-tokens.ts';

const PLAIN = { cancelMoves: false, countRemovals: true };

function highlighted(diff: AreaDiff, side: 'old' | 'new'): string[] {
  return diff.rows.flatMap((row) => row[side]?.segments.filter((s) => s.changed).map((s) => s.text) ?? []);
}

describe('word tokens', () => {
  test('split Japanese by script runs and keep numbers whole', () => {
    expect(wordTokens('東京都の天気は晴れ')).toEqual(['東京都', 'の', '天気', 'は', '晴', 'れ']);
    expect(wordTokens('iPhone 15 ¥1,234')).toEqual(['iPhone', ' ', '15', ' ', '¥', '1,234']);
    expect(wordTokens('カード').join('')).toBe('カード');
  });
});

describe('line diff', () => {
  test('keeps equal runs and groups replaced lines', () => {
    expect(diffLineArrays(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([
      { same: true, oldStart: 0, newStart: 0, count: 1 },
      { same: false, oldStart: 1, oldCount: 1, newStart: 1, newCount: 1 },
      { same: true, oldStart: 2, newStart: 2, count: 1 },
    ]);
  });
});

describe('diffArea', () => {
  test('a line changed in place becomes one modified row with word highlights', () => {
    const diff = diffArea(['価格 1,000円 在庫あり'], ['価格 1,200円 在庫あり'], PLAIN);
    expect(diff.rows).toHaveLength(1);
    expect(diff.rows[0]?.kind).toBe('modified');
    expect(highlighted(diff, 'old')).toEqual(['1,000']);
    expect(highlighted(diff, 'new')).toEqual(['1,200']);
    expect(diff.added).toEqual(['価格 1,200円 在庫あり']);
    expect(diff.removed).toEqual(['価格 1,000円 在庫あり']);
  });

  test('unrelated lines are shown removed and added whole', () => {
    const diff = diffArea(['全く別の文章'], ['completely different'], PLAIN);
    expect(diff.rows.map((row) => row.kind)).toEqual(['removed', 'added']);
  });

  test('a space between two changed words is highlighted with them', () => {
    const diff = diffArea(['a b'], ['a new thing b'], PLAIN);
    expect(highlighted(diff, 'new')).toEqual(['new thing']);
  });

  test('moved lines are context when moves are cancelled, changes otherwise', () => {
    expect(diffArea(['a', 'b'], ['b', 'a'], PLAIN).rows.some((row) => row.changed)).toBe(true);
    const cancelled = diffArea(['a', 'b'], ['b', 'a'], { cancelMoves: true, countRemovals: true });
    expect(cancelled.rows.some((row) => row.changed)).toBe(false);
    expect(cancelled.added).toEqual([]);
  });

  test('without counting removals, only additions are highlighted', () => {
    const diff = diffArea(['a', 'b'], ['c'], { cancelMoves: true, countRemovals: false });
    expect(highlighted(diff, 'old')).toEqual([]);
    expect(diff.added).toEqual(['c']);
    expect(diff.removed).toEqual([]);
  });

  test('rows number lines from 1 on each side', () => {
    const diff = diffArea(['a', 'b'], ['a', 'x', 'b'], PLAIN);
    expect(diff.rows.map((row) => [row.old?.line ?? null, row.new?.line ?? null])).toEqual([
      [1, 1],
      [null, 2],
      [2, 3],
    ]);
  });
});
