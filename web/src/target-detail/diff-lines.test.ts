import { describe, expect, it } from 'vitest';
import type { DiffRow } from '../api/history.ts';
import { foldUnchanged, inlineLines, isFolded, rowsFromDiffText, sideBySideRows } from './diff-lines.ts';

const same = (line: number, text: string): DiffRow => ({
  kind: 'same',
  changed: false,
  old: { line, segments: [{ text, changed: false }] },
  new: { line, segments: [{ text, changed: false }] },
});

const priceChange: DiffRow = {
  kind: 'modified',
  changed: true,
  old: {
    line: 2,
    segments: [
      { text: 'Price ', changed: false },
      { text: '¥1,200', changed: true },
    ],
  },
  new: {
    line: 2,
    segments: [
      { text: 'Price ', changed: false },
      { text: '¥980', changed: true },
    ],
  },
};

describe('inline diff', () => {
  it('shows a changed line as its old line removed, then its new line added, with word highlights', () => {
    expect(inlineLines([same(1, 'Sale'), priceChange])).toEqual([
      { mark: 'same', oldLine: 1, newLine: 1, segments: [{ text: 'Sale', changed: false }] },
      { mark: 'removed', oldLine: 2, newLine: null, segments: priceChange.old?.segments },
      { mark: 'added', oldLine: null, newLine: 2, segments: priceChange.new?.segments },
    ]);
  });

  it('never highlights a row the options do not count', () => {
    const moved: DiffRow = { ...priceChange, changed: false };
    const lines = inlineLines([moved]);
    expect(lines.map((line) => line.mark)).toEqual(['removed', 'added']);
    expect(lines.flatMap((line) => line.segments).some((segment) => segment.changed)).toBe(false);
  });

  it('keeps added and removed lines on their own side', () => {
    const added: DiffRow = {
      kind: 'added',
      changed: true,
      old: null,
      new: { line: 3, segments: [{ text: 'New', changed: true }] },
    };
    expect(sideBySideRows([added])).toEqual([{ kind: 'added', old: null, new: added.new }]);
    expect(inlineLines([added])).toEqual([
      { mark: 'added', oldLine: null, newLine: 3, segments: added.new?.segments },
    ]);
  });
});

describe('folding unchanged lines', () => {
  it('keeps two lines of context around a change and folds the rest', () => {
    const rows = [
      ...Array.from({ length: 6 }, (_, at) => same(at + 1, `line ${at + 1}`)),
      priceChange,
      same(8, 'end'),
    ];
    const folded = foldUnchanged(rows, (row) => row.changed);
    expect(folded.map((item) => (isFolded(item) ? `fold ${item.folded}` : item.old?.line))).toEqual([
      'fold 4',
      5,
      6,
      2,
      8,
    ]);
  });

  it('does not fold a single line', () => {
    const rows = [same(1, 'a'), same(2, 'b'), same(3, 'c'), priceChange];
    expect(foldUnchanged(rows, (row) => row.changed).some(isFolded)).toBe(false);
  });
});

describe('rows from the notification text', () => {
  it('reads removed, added and context lines with their line numbers', () => {
    const rows = rowsFromDiffText('  Sale\n- ¥1,200\n+ ¥980 sale\n');
    expect(rows.map((row) => [row.kind, row.old?.line ?? null, row.new?.line ?? null])).toEqual([
      ['same', 1, 1],
      ['removed', 2, null],
      ['added', null, 2],
    ]);
    expect(rows[2]?.new?.segments).toEqual([{ text: '¥980 sale', changed: true }]);
  });
});
