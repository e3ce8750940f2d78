import { describe, expect, it } from 'vitest';
import { areaName, matchedRuleLines } from './update-wording.ts';

describe('update wording', () => {
  it('names each matched condition in the reader’s language', () => {
    const matched = [
      {
        groupIndex: 1,
        conditionIndex: 0,
        areaId: 'stock',
        operand: 'all',
        operator: 'not_re',
        value: '在庫なし',
      },
    ];
    expect(matchedRuleLines({ lang: 'ja', matched, areaLabels: {} })).toEqual([
      'グループ2 条件1: 監視範囲 stock — 全体 正規表現に一致しない 在庫なし',
    ]);
    expect(matchedRuleLines({ lang: 'en', matched, areaLabels: { stock: '在庫表示' } })).toEqual([
      'group 2 condition 1: 在庫表示 — whole text does not match 在庫なし',
    ]);
  });

  it('names an area as the person did, else from its id', () => {
    expect(areaName({ areaId: 'area-1', label: '価格' }, 'ja')).toBe('価格');
    expect(areaName({ areaId: 'area-1', label: '' }, 'ja')).toBe('監視範囲 area-1');
    expect(areaName({ areaId: 'page', label: '' }, 'en')).toBe('Whole page');
  });
});
