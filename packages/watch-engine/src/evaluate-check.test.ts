import { describe, expect, test } from 'vitest';
import { type AreaOptions, DEFAULT_AREA_OPTIONS } from './area-options.ts';
import type { AreaResult } from './compare-area.ts';
import { formatDiffText } from './diff/format-diff-text.ts';
import { type CheckResult, evaluateCheck } from './evaluate-check.ts';
import type { AreaSnapshot } from './normalise/extract-area-content.ts';
import type { NotificationRules } from './notification-rules.ts';

function options(overrides: Partial<AreaOptions> = {}): AreaOptions {
  return { ...DEFAULT_AREA_OPTIONS, ...overrides };
}

function checkText(
  previous: string | null,
  current: string | null,
  overrides: Partial<AreaOptions> = {},
  rules?: NotificationRules,
  pastUpdates: string[] = [],
): CheckResult {
  const snapshot = (text: string | null): AreaSnapshot | null => (text === null ? null : { text });
  return evaluateCheck({
    areas: [
      {
        areaId: 'area-1',
        options: options(overrides),
        current: snapshot(current),
        previous: snapshot(previous),
        pastUpdates: pastUpdates.map((text) => ({ text })),
      },
    ],
    ...(rules ? { rules } : {}),
  });
}

function area(result: CheckResult): AreaResult {
  const first = result.areas[0];
  if (!first) throw new Error(`no area result in ${JSON.stringify(result)}`);
  return first;
}

function shownDiff(result: CheckResult): string {
  const first = area(result);
  return first.outcome === 'error' ? '' : formatDiffText(first.diff, 0);
}

describe('updates and their diff', () => {
  test('a changed line is an update, with the changed words highlighted', () => {
    const result = checkText('在庫なし\n価格 1,200円', '在庫あり\n価格 1,200円');
    expect(result.kind).toBe('update');
    expect(shownDiff(result)).toBe('- 在庫なし\n+ 在庫あり');
    const first = area(result);
    const row = first.outcome === 'updated' ? first.diff.rows[0] : undefined;
    expect(row).toMatchObject({
      kind: 'modified',
      changed: true,
      old: {
        line: 1,
        segments: [
          { text: '在庫', changed: false },
          { text: 'なし', changed: true },
        ],
      },
      new: {
        line: 1,
        segments: [
          { text: '在庫', changed: false },
          { text: 'あり', changed: true },
        ],
      },
    });
  });

  test('English: an added line is an update and notifies without rules', () => {
    const result = checkText('Spring sale', 'Spring sale\nSummer sale starts');
    expect(result).toMatchObject({ kind: 'update', notify: true, updatedAreaIds: ['area-1'] });
    expect(shownDiff(result)).toBe('+ Summer sale starts');
  });

  test('a removed line is an update by default', () => {
    expect(shownDiff(checkText('a\nb', 'a'))).toBe('- b');
  });

  test('the same content is no change, and the first check only records a baseline', () => {
    expect(checkText('同じ', '同じ')).toMatchObject({ kind: 'no_change', areas: [{ outcome: 'unchanged' }] });
    expect(checkText(null, '初回')).toMatchObject({ kind: 'no_change', areas: [{ outcome: 'first_check' }] });
  });

  test('the result carries the normalised text and its hash', () => {
    const result = area(checkText('a', ' b \u200b'));
    expect(result).toMatchObject({ outcome: 'updated', text: 'b' });
    expect(result.outcome !== 'error' && result.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('edge cases', () => {
  test('an area that vanished is an error, not a removal of everything', () => {
    expect(checkText('在庫あり', null)).toMatchObject({
      kind: 'error',
      reason: 'area_not_found',
      areaId: 'area-1',
    });
  });

  test('an empty area is an error', () => {
    expect(checkText('在庫あり', ' \n\u200b ')).toMatchObject({ kind: 'error', reason: 'area_empty' });
    expect(checkText(null, '')).toMatchObject({ kind: 'error', reason: 'area_empty' });
  });

  test('an area emptied by its own exclusions is simply unchanged', () => {
    expect(checkText('12', '13', { excludeNumbers: true })).toMatchObject({ kind: 'no_change' });
  });

  test('a whitespace-only change, line breaks included, is not an update', () => {
    const result = checkText('在庫 あり\n価格', '在庫あり 価格');
    expect(result).toMatchObject({
      kind: 'no_change',
      areas: [{ outcome: 'not_counted', reason: 'whitespace_only' }],
    });
  });

  test('a reordered list is an update by default and not in add-only mode', () => {
    expect(checkText('a\nb\nc', 'c\na\nb').kind).toBe('update');
    expect(checkText('a\nb\nc', 'c\na\nb', { addOnly: true })).toMatchObject({
      kind: 'no_change',
      areas: [{ outcome: 'not_counted', reason: 'add_only' }],
    });
  });

  test('an HTML entity change (&amp; against &) is not an update, with or without tags', () => {
    for (const stripTags of [true, false]) {
      const result = evaluateCheck({
        areas: [
          {
            areaId: 'a',
            options: options({ stripTags }),
            previous: { html: '<p>Tom &amp; Jerry</p>' },
            current: { html: '<p>Tom & Jerry</p>' },
          },
        ],
      });
      expect(result.kind).toBe('no_change');
    }
  });

  test('a changed attribute is an update only when tags are kept', () => {
    const check = (stripTags: boolean) =>
      evaluateCheck({
        areas: [
          {
            areaId: 'a',
            options: options({ stripTags }),
            previous: { html: '<a href="/old">詳細</a>' },
            current: { html: '<a href="/new">詳細</a>' },
          },
        ],
      }).kind;
    expect(check(true)).toBe('no_change');
    expect(check(false)).toBe('update');
  });

  test('invisible characters (zero-width space, NBSP) are not changes', () => {
    expect(checkText('在庫 あり', '在\u200b庫\u00a0あり').kind).toBe('no_change');
  });

  test('a very large area with one changed line shows just that line', () => {
    const lines = Array.from({ length: 30_000 }, (_, k) => `商品 ${k} の説明文 item number ${k}`);
    const changed = [...lines];
    changed[15_000] = '商品 15000 の説明文 item number 15000 SOLD OUT';
    const result = checkText(lines.join('\n'), changed.join('\n'));
    expect(result.kind).toBe('update');
    // Nothing was removed from the line, so only its new side is marked.
    expect(shownDiff(result)).toBe('+ 商品 15000 の説明文 item number 15000 SOLD OUT');
  });

  test('a very large area rewritten completely is still one correct diff', () => {
    const before = Array.from({ length: 5_000 }, (_, k) => `old ${k}`).join('\n');
    const after = Array.from({ length: 5_000 }, (_, k) => `new ${k}`).join('\n');
    const result = area(checkText(before, after));
    expect(result.outcome).toBe('updated');
    if (result.outcome !== 'updated') return;
    expect(result.diff.added).toHaveLength(5_000);
    expect(result.diff.removed).toHaveLength(5_000);
  });
});

describe('strip tags', () => {
  test('with tags stripped, markup-only changes are not updates; text changes are', () => {
    const check = (previous: string, current: string) =>
      evaluateCheck({
        areas: [
          { areaId: 'a', options: options(), previous: { html: previous }, current: { html: current } },
        ],
      });
    expect(check('<p><b>Sale</b></p>', '<p><strong>Sale</strong></p>').kind).toBe('no_change');
    expect(check('<p>Sale</p>', '<p>Sold out</p>').kind).toBe('update');
  });

  test('with tags kept, the diff shows markup lines', () => {
    const result = evaluateCheck({
      areas: [
        {
          areaId: 'a',
          options: options({ stripTags: false }),
          previous: { html: '<ul><li class="a">x</li></ul>' },
          current: { html: '<ul><li class="b">x</li></ul>' },
        },
      ],
    });
    expect(shownDiff(result)).toBe('- <li class="a">x</li>\n+ <li class="b">x</li>');
  });
});

describe('exclude dates, times and numbers', () => {
  test('Japanese: a changed date or time alone is not an update', () => {
    const o = { excludeDates: true, excludeTimes: true };
    expect(
      checkText('更新 2026年11月22日 14時05分\n在庫あり', '更新 2026年11月23日 9時00分\n在庫あり', o).kind,
    ).toBe('no_change');
    expect(checkText('更新 令和8年11月22日', '更新 令和8年11月23日', { excludeDates: true }).kind).toBe(
      'no_change',
    );
  });

  test('English: a changed date or time alone is not an update', () => {
    const o = { excludeDates: true, excludeTimes: true };
    expect(checkText('Updated Nov 22, 2026 2:05 PM', 'Updated Nov 23, 2026 9:00 AM', o).kind).toBe(
      'no_change',
    );
  });

  test('without the option the same change is an update', () => {
    expect(checkText('更新 2026年11月22日', '更新 2026年11月23日').kind).toBe('update');
  });

  test('dates and numbers: a number after an English date never changes what the date leaves behind', () => {
    // Found by the numbers-only property: '0000' is no year, so it must not keep 'Nov 22' (or its comma).
    const o = { excludeDates: true, excludeNumbers: true };
    expect(checkText('在庫 Nov 22, 2026-5 0000 在庫あり', '在庫 Nov 22, 2026-5 0 在庫あり', o).kind).toBe(
      'no_change',
    );
    expect(checkText('Sale Nov 22, 2026 left', 'Sale Nov 22, 0000 left', o).kind).toBe('no_change');
    expect(checkText('Sale 22 November, 2026 left', 'Sale 22 November, 12 left', o).kind).toBe('no_change');
  });

  test('numbers: a changed count is not an update, and excluded numbers never reach the diff', () => {
    expect(checkText('閲覧 1,234 回', '閲覧 １，２４０ 回', { excludeNumbers: true }).kind).toBe('no_change');
    const result = checkText('在庫 5 個', '残り 3 個', { excludeNumbers: true });
    expect(shownDiff(result)).toBe('- 在庫 個\n+ 残り 個');
  });

  test('times excluded, a date change is still an update', () => {
    expect(checkText('11/22 14:05', '11/23 14:05', { excludeTimes: true }).kind).toBe('update');
  });
});

describe('add-only', () => {
  test('Japanese: a new item is an update; a removed one is not', () => {
    expect(checkText('お知らせA\nお知らせB', 'お知らせC\nお知らせA\nお知らせB', { addOnly: true }).kind).toBe(
      'update',
    );
    expect(checkText('お知らせA\nお知らせB', 'お知らせA', { addOnly: true })).toMatchObject({
      kind: 'no_change',
      areas: [{ outcome: 'not_counted', reason: 'add_only' }],
    });
  });

  test('English: words removed from a line are not an update; a word added is', () => {
    expect(checkText('red green blue', 'red blue', { addOnly: true }).kind).toBe('no_change');
    expect(checkText('red green blue', 'red green blue black', { addOnly: true }).kind).toBe('update');
  });

  test('the diff of an add-only update highlights only additions', () => {
    const result = checkText('old news\nkept', 'kept\nfresh news', { addOnly: true });
    expect(result.kind).toBe('update');
    expect(shownDiff(result)).toBe('+ fresh news');
    const first = area(result);
    expect(first.outcome === 'updated' && first.diff.removed).toEqual([]);
  });
});

describe('exclude words and regexes', () => {
  test('a change inside an excluded word is not an update (Japanese and English)', () => {
    expect(
      checkText('本日のおすすめ 在庫あり', '本日のオススメ 在庫あり', {
        excludeWords: ['おすすめ', 'オススメ'],
      }).kind,
    ).toBe('no_change');
    expect(checkText('NEW arrivals', 'HOT arrivals', { excludeWords: ['new', 'hot'] }).kind).toBe(
      'no_change',
    );
  });

  test('a Python-syntax pattern removes what it matches before comparing', () => {
    const o = { excludeRegexes: [String.raw`(?i)ref=\w+`] };
    expect(checkText('link ref=abc123', 'link REF=zz9', o).kind).toBe('no_change');
    expect(checkText('link ref=abc', 'page ref=abc', o).kind).toBe('update');
  });

  test('a stored pattern that cannot run is an error naming the problem', () => {
    const result = checkText('a', 'b', { excludeRegexes: ['(?<=x)y'] });
    expect(result).toMatchObject({ kind: 'error', reason: 'invalid_area_options' });
    expect(result.kind === 'error' && result.message).toContain('lookbehind');
  });
});

describe('allow same words', () => {
  test('words that only moved are not an update (Japanese and English)', () => {
    expect(checkText('東京 大阪 名古屋', '大阪 名古屋 東京', { allowSameWords: true })).toMatchObject({
      kind: 'no_change',
      areas: [{ outcome: 'not_counted', reason: 'same_words' }],
    });
    expect(checkText('apple banana\ncherry', 'cherry banana\napple', { allowSameWords: true }).kind).toBe(
      'no_change',
    );
  });

  test('a new word is still an update, and only it is highlighted', () => {
    const result = checkText('apple banana', 'banana apple kiwi', { allowSameWords: true });
    expect(result.kind).toBe('update');
    const first = area(result);
    const highlighted =
      first.outcome === 'updated'
        ? first.diff.rows.flatMap(
            (row) => row.new?.segments.filter((s) => s.changed).map((s) => s.text) ?? [],
          )
        : [];
    expect(highlighted).toEqual(['kiwi']);
  });

  test('a removed word still counts (unlike add-only)', () => {
    expect(checkText('apple banana', 'banana', { allowSameWords: true }).kind).toBe('update');
  });
});

describe('exclude same as past updates', () => {
  test('content equal to one of the last N updates is not an update', () => {
    const o = { excludeSameAsPast: { enabled: true, count: 2 } };
    expect(checkText('状態B', '状態A', o, undefined, ['状態B', '状態A'])).toMatchObject({
      kind: 'no_change',
      areas: [{ outcome: 'not_counted', reason: 'same_as_past_update' }],
    });
  });

  test('only the last N count', () => {
    const o = { excludeSameAsPast: { enabled: true, count: 1 } };
    expect(checkText('状態B', '状態A', o, undefined, ['状態B', '状態A']).kind).toBe('update');
  });

  test('past versions are compared after the same normalisation', () => {
    const o = { excludeSameAsPast: { enabled: true, count: 3 }, excludeNumbers: true };
    expect(checkText('off', 'on 12', o, undefined, ['off', 'on 7']).kind).toBe('no_change');
  });

  test('disabled, a flip back is an update', () => {
    expect(checkText('状態B', '状態A', {}, undefined, ['状態B', '状態A']).kind).toBe('update');
  });
});

describe('combinations', () => {
  test('add-only + exclude numbers + a keyword rule on the new part', () => {
    const rules: NotificationRules = {
      combine: 'and',
      groups: [
        {
          combine: 'and',
          conditions: [{ areaId: 'area-1', operand: 'new', operator: 'keyword', value: '新製品' }],
        },
      ],
    };
    const o = { addOnly: true, excludeNumbers: true };
    const previous = '在庫 3 個\nお知らせ: 値下げ';
    const withNews = checkText(previous, '在庫 1 個\nお知らせ: 新製品 発売\nお知らせ: 値下げ', o, rules);
    expect(withNews).toMatchObject({
      kind: 'update',
      notify: true,
      matchedConditions: [{ groupIndex: 0, conditionIndex: 0 }],
    });
    expect(shownDiff(withNews)).toBe('+ お知らせ: 新製品 発売');
    const otherNews = checkText(previous, '在庫 9 個\nお知らせ: 入荷\nお知らせ: 値下げ', o, rules);
    expect(otherNews).toMatchObject({ kind: 'update', notify: false, matchedConditions: [] });
    expect(checkText(previous, '在庫 9 個', o, rules).kind).toBe('no_change');
  });

  test('exclude regex + allow same words', () => {
    const o = { excludeRegexes: [String.raw`\(\d+件\)`], allowSameWords: true };
    expect(checkText('東京(3件) 大阪(5件)', '大阪(6件) 東京(2件)', o).kind).toBe('no_change');
    expect(checkText('東京(3件) 大阪(5件)', '大阪(6件) 東京(2件) 福岡(1件)', o).kind).toBe('update');
  });

  test('exclude dates + add-only: a new dated entry is an update, a date bump is not', () => {
    const o = { excludeDates: true, addOnly: true };
    expect(checkText('2026/11/20 決算発表', '2026/11/22 決算発表', o).kind).toBe('no_change');
    expect(checkText('2026/11/20 決算発表', '2026/11/22 配当予想の修正\n2026/11/20 決算発表', o).kind).toBe(
      'update',
    );
  });

  test('several areas: the check is an update when any area is, rules read each area', () => {
    const result = evaluateCheck({
      areas: [
        { areaId: 'price', options: options(), previous: { text: '¥1,000' }, current: { text: '¥800' } },
        {
          areaId: 'stock',
          options: options(),
          previous: { text: '在庫あり' },
          current: { text: '在庫あり' },
        },
      ],
      rules: {
        combine: 'and',
        groups: [
          {
            combine: 'and',
            conditions: [
              { areaId: 'price', operand: 'all', operator: 'decrease_percent', value: '10' },
              { areaId: 'stock', operand: 'all', operator: 'keyword', value: '在庫あり' },
            ],
          },
        ],
      },
    });
    expect(result).toMatchObject({ kind: 'update', notify: true, updatedAreaIds: ['price'] });
    expect(result.kind === 'update' && result.matchedConditions).toHaveLength(2);
  });

  test('an error in one area makes the check an error but keeps the other results', () => {
    const result = evaluateCheck({
      areas: [
        { areaId: 'a', options: options(), previous: { text: 'x' }, current: { text: 'y' } },
        { areaId: 'b', options: options(), previous: { text: 'x' }, current: null },
      ],
    });
    expect(result).toMatchObject({ kind: 'error', reason: 'area_not_found', areaId: 'b' });
    expect(result.areas.map((a) => a.outcome)).toEqual(['updated', 'error']);
  });
});

describe('rules stored before validation', () => {
  test('a rule that cannot run makes the check an error, not a throw', () => {
    const rules: NotificationRules = {
      combine: 'and',
      groups: [
        {
          combine: 'and',
          conditions: [{ areaId: 'area-1', operand: 'all', operator: 're', value: '(a)\\1' }],
        },
      ],
    };
    expect(checkText('a', 'b', {}, rules)).toMatchObject({ kind: 'error', reason: 'invalid_rules' });
  });

  test('a condition on an area that is gone is false, not an error', () => {
    const rules: NotificationRules = {
      combine: 'or',
      groups: [
        { combine: 'and', conditions: [{ areaId: 'gone', operand: 'all', operator: 'keyword', value: 'x' }] },
      ],
    };
    expect(checkText('a', 'b', {}, rules)).toMatchObject({ kind: 'update', notify: false });
  });

  test('malformed input never throws', () => {
    const result = evaluateCheck({
      areas: [{ areaId: 'a', options: null, current: { text: 'x' }, previous: null }],
    } as never);
    expect(result).toMatchObject({ kind: 'error', reason: 'engine_failure' });
  });
});
