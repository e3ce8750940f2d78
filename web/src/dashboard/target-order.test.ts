import { describe, expect, it } from 'vitest';
import type { TargetRow } from '../api/targets.ts';
import { REGISTRATION_ORDER, sortByColumn, UPDATE_ORDER, visibleTargets } from './target-order.ts';

function site(no: number, fields: Partial<TargetRow> = {}): TargetRow {
  return {
    id: `id-${no}`,
    ver: 2,
    no,
    label: `Site ${no}`,
    url: `https://example.com/${no}`,
    valid: true,
    new: false,
    proxy: false,
    updated: null,
    checked: null,
    resumable: false,
    paused_for_hold: false,
    interval_minutes: 60,
    failing: null,
    ...fields,
  };
}

const all = { search: '', showPaused: true };
const numbers = (rows: TargetRow[]) => rows.map((row) => row.no);

describe('visibleTargets', () => {
  const sites = [
    site(3, { label: '価格ウォッチ', updated: '2026-11-20T10:00:00.000Z', valid: false }),
    site(1, {
      label: 'Shop Prices',
      url: 'https://shop.example.jp/item',
      updated: '2026-11-22T10:00:00.000Z',
    }),
    site(2, { label: 'News', url: 'https://news.example.org/' }),
  ];

  it('lists in registration order and in update order, never-updated sites last', () => {
    expect(numbers(visibleTargets(sites, all, REGISTRATION_ORDER))).toEqual([1, 2, 3]);
    expect(numbers(visibleTargets(sites, all, UPDATE_ORDER))).toEqual([1, 3, 2]);
    expect(numbers(visibleTargets(sites, all, { key: 'updated', descending: false }))).toEqual([3, 1, 2]);
  });

  it('leaves paused sites out only when asked', () => {
    expect(numbers(visibleTargets(sites, { search: '', showPaused: false }, REGISTRATION_ORDER))).toEqual([
      1, 2,
    ]);
  });

  it('finds the search words in the label or the URL, ignoring case', () => {
    expect(numbers(visibleTargets(sites, { ...all, search: 'SHOP' }, REGISTRATION_ORDER))).toEqual([1]);
    expect(numbers(visibleTargets(sites, { ...all, search: 'example.org' }, REGISTRATION_ORDER))).toEqual([
      2,
    ]);
    expect(numbers(visibleTargets(sites, { ...all, search: '価格' }, REGISTRATION_ORDER))).toEqual([3]);
    expect(numbers(visibleTargets(sites, { ...all, search: 'shop item' }, REGISTRATION_ORDER))).toEqual([1]);
    expect(numbers(visibleTargets(sites, { ...all, search: 'shop news' }, REGISTRATION_ORDER))).toEqual([]);
  });

  it('sorts labels naturally and keeps registration order between equal labels', () => {
    const named = [
      site(1, { label: 'b 10' }),
      site(2, { label: 'B 9' }),
      site(3, { label: 'a' }),
      site(4, { label: 'a' }),
    ];
    expect(numbers(visibleTargets(named, all, { key: 'label', descending: false }))).toEqual([3, 4, 2, 1]);
    expect(numbers(visibleTargets(named, all, { key: 'label', descending: true }))).toEqual([1, 2, 3, 4]);
  });

  it('does not reorder the list it was given', () => {
    visibleTargets(sites, all, REGISTRATION_ORDER);
    expect(numbers(sites)).toEqual([3, 1, 2]);
  });
});

describe('sortByColumn', () => {
  it('flips the direction of the current column and starts dates newest first', () => {
    expect(sortByColumn(REGISTRATION_ORDER, 'no')).toEqual({ key: 'no', descending: true });
    expect(sortByColumn(REGISTRATION_ORDER, 'checked')).toEqual({ key: 'checked', descending: true });
    expect(sortByColumn(UPDATE_ORDER, 'label')).toEqual({ key: 'label', descending: false });
  });
});
