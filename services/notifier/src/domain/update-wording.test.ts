import { describe, expect, it } from 'vitest';
import { localTime, matchedRuleLines } from './update-wording.ts';

describe('update wording', () => {
  it('gives the time in the reader’s zone, or the language’s usual one when unknown', () => {
    const at = new Date('2026-11-23T14:05:00Z');
    expect(localTime(at, 'Etc/GMT-9', 'en')).toBe('2026-11-23 23:05 (Etc/GMT-9)');
    expect(localTime(at, '', 'ja')).toBe('2026-11-23 23:05 (Asia/Tokyo)');
    expect(localTime(at, 'Not/AZone', 'en')).toBe('2026-11-23 14:05 (UTC)');
  });

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
    expect(matchedRuleLines({ lang: 'ja', matched })).toEqual([
      'グループ2 条件1: 監視範囲 stock — 全体 正規表現に一致しない 在庫なし',
    ]);
    expect(matchedRuleLines({ lang: 'en', matched })).toEqual([
      'group 2 condition 1: Area stock — whole text does not match 在庫なし',
    ]);
  });
});
