import { describe, expect, it } from 'vitest';
import { areaName, localTime, matchedRuleLines, zoneName } from './update-wording.ts';

describe('update wording', () => {
  it('gives the time in the reader’s zone, or the language’s usual one when unknown', () => {
    const at = new Date('2026-11-23T14:05:00Z');
    expect(localTime(at, 'Asia/Tokyo', 'ja')).toBe('2026-11-23 23:05（日本時間）');
    expect(localTime(at, 'Asia/Tokyo', 'en')).toBe('2026-11-23 23:05 (Japan time)');
    expect(localTime(at, '', 'ja')).toBe('2026-11-23 23:05（日本時間）');
    expect(localTime(at, 'Not/AZone', 'en')).toBe('2026-11-23 14:05 (UTC)');
  });

  it('names an offset-only zone by its offset the way people write it, never "Etc/GMT-9"', () => {
    const at = new Date('2026-11-23T14:05:00Z');
    // The sign-up sets Etc/GMT-9 from a UTC+9 browser: its POSIX sign reads backwards.
    expect(localTime(at, 'Etc/GMT-9', 'ja')).toBe('2026-11-23 23:05（UTC+9）');
    expect(localTime(at, 'Etc/GMT-9', 'en')).toBe('2026-11-23 23:05 (UTC+9)');
    expect(zoneName('Etc/GMT+5', 'en', at)).toBe('UTC-5');
    expect(zoneName('Etc/GMT', 'ja', at)).toBe('UTC');
  });

  it('names other zones by Intl’s generic name in the reader’s language', () => {
    const at = new Date('2026-11-23T14:05:00Z');
    expect(zoneName('America/New_York', 'ja', at)).toBe('米国東部時間');
    expect(zoneName('America/New_York', 'en', at)).toBe('Eastern Time');
    expect(zoneName('Asia/Kolkata', 'en', at)).toBe('India Standard Time');
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
