import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type AreaOptions, DEFAULT_AREA_OPTIONS } from './area-options.ts';
import { type CheckResult, evaluateCheck } from './evaluate-check.ts';
import { canonicalMarkup } from './normalise/extract-area-content.ts';
import { normaliseArea } from './normalise/normalise-area.ts';

// Text built from pieces real pages are made of, Japanese and English, with the forms the options
// target (dates, times, numbers) and the characters that cause trouble (NBSP, zero-width space, tabs).
const piece = fc.constantFrom(
  '在庫あり',
  '在庫なし',
  '価格',
  '円',
  '新着',
  'お知らせ',
  '東京',
  'Sale',
  'price',
  'new',
  'item',
  'sold out',
  '2026年11月22日',
  '令和8年11月22日',
  '2026/11/22',
  '11/22',
  'Nov 22, 2026',
  '22 November 2026',
  '14:05',
  '14時05分',
  '午後2時5分',
  '2:05 PM',
  '1,234.50',
  '１２３４',
  '12万3千',
  '-5',
  '▲300',
  '$12',
  '¥980',
  ' ',
  '\u00a0',
  '\u200b',
  '\t',
  '&',
  '(',
  ')',
  ':',
  'ab',
  'aab',
  'b',
);
const line = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
const content = fc.array(line, { maxLength: 12 }).map((lines) => lines.join('\n'));
const areaOptions: fc.Arbitrary<AreaOptions> = fc.record({
  stripTags: fc.constant(true),
  excludeDates: fc.boolean(),
  excludeTimes: fc.boolean(),
  excludeNumbers: fc.boolean(),
  addOnly: fc.boolean(),
  excludeWords: fc.subarray(['Sale', '在庫', 'new']),
  excludeRegexes: fc.subarray(['ab', String.raw`\(\d*\)`, '(?i)item', '^価格']),
  allowSameWords: fc.boolean(),
  excludeSameAsPast: fc.record({ enabled: fc.boolean(), count: fc.integer({ min: 1, max: 3 }) }),
  // The snapshots here are text only: there is no markup to exclude elements from.
  excludeElements: fc.constant([]),
});

function check(previous: string, current: string, options: AreaOptions): CheckResult {
  return evaluateCheck({
    areas: [{ areaId: 'a', options, previous: { text: previous }, current: { text: current } }],
  });
}

const RUNS = { numRuns: 300 };

describe('properties', () => {
  test('normalisation is idempotent', () => {
    fc.assert(
      fc.property(content, areaOptions, (text, options) => {
        const once = normaliseArea(text, options);
        const twice = normaliseArea(once.text, options);
        expect(twice.text).toBe(once.text);
        expect(twice.contentHash).toBe(once.contentHash);
      }),
      RUNS,
    );
  });

  test('canonical markup is stable', () => {
    const tag = fc.constantFrom('p', 'div', 'li', 'b', 'a', 'span', 'br', 'td');
    const node: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        piece,
        fc
          .tuple(tag, fc.array(tie('node'), { maxLength: 3 }))
          .map(([name, children]) =>
            name === 'br' ? '<br>' : `<${name} class="${name}">${children.join('')}</${name}>`,
          ),
      ),
    })).node;
    fc.assert(
      fc.property(fc.array(node, { maxLength: 5 }), (nodes) => {
        const once = canonicalMarkup(nodes.join(''));
        expect(canonicalMarkup(once)).toBe(once);
      }),
      RUNS,
    );
  });

  test('content compared with itself is never an update', () => {
    fc.assert(
      fc.property(content, areaOptions, (text, options) => {
        fc.pre(/\S/u.test(text.replace(/\u200b/g, '')));
        expect(check(text, text, options).kind).toBe('no_change');
      }),
      RUNS,
    );
  });

  test('with exclude numbers, a change of numbers only is never an update', () => {
    const digit = fc.constantFrom(...'0123456789０１２３４５６７８９');
    const withNumbers = fc.array(fc.oneof(piece, fc.constant('#')), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(
        withNumbers,
        fc.array(fc.array(digit, { minLength: 1, maxLength: 4 }), { minLength: 40, maxLength: 40 }),
        areaOptions,
        (pieces, numbers, options) => {
          let next = 0;
          // Every '#' becomes a number, different in the two versions; the words around stay the same.
          const fill = (offset: number) =>
            pieces.map((p) => (p === '#' ? ` ${numbers[(next++ + offset) % 40]?.join('')} ` : p)).join('');
          const previous = `在庫 ${fill(0)}`;
          next = 0;
          const current = `在庫 ${fill(7)}`;
          expect(check(previous, current, { ...options, excludeNumbers: true }).kind).toBe('no_change');
        },
      ),
      RUNS,
    );
  });

  test('add-only never reports an update for a pure deletion', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        areaOptions,
        (lines, keep, options) => {
          const previous = lines.join('\n');
          const current = ['在庫', ...lines.filter((_, index) => keep[index])].join('\n');
          expect(check(`在庫\n${previous}`, current, { ...options, addOnly: true }).kind).not.toBe('update');
        },
      ),
      RUNS,
    );
  });

  test('an update always has a highlighted, non-blank part in the diff it reports', () => {
    fc.assert(
      fc.property(content, content, areaOptions, (previous, current, options) => {
        const result = check(`x\n${previous}`, `x\n${current}`, options);
        if (result.kind !== 'update') return;
        for (const area of result.areas) {
          if (area.outcome !== 'updated') continue;
          const highlighted = area.diff.rows.flatMap((row) =>
            [...(row.old?.segments ?? []), ...(row.new?.segments ?? [])].filter(
              (s) => s.changed && /\S/u.test(s.text),
            ),
          );
          expect(highlighted.length).toBeGreaterThan(0);
          expect(area.diff.added.length + area.diff.removed.length).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
  });

  test('the diff is faithful: each side of the rows spells out the old and new normalised text', () => {
    fc.assert(
      fc.property(content, content, (previous, current) => {
        const options = { ...DEFAULT_AREA_OPTIONS };
        const result = check(`x\n${previous}`, `x\n${current}`, options);
        if (result.kind !== 'update') return;
        const area = result.areas[0];
        if (area?.outcome !== 'updated') return;
        const side = (pick: 'old' | 'new') =>
          area.diff.rows
            .flatMap((row) => (row[pick] ? [row[pick].segments.map((s) => s.text).join('')] : []))
            .join('\n');
        expect(side('old')).toBe(normaliseArea(`x\n${previous}`, options).text);
        expect(side('new')).toBe(normaliseArea(`x\n${current}`, options).text);
      }),
      RUNS,
    );
  });
});
