import { describe, expect, test } from 'vitest';
import { type AreaOptions, DEFAULT_AREA_OPTIONS } from '../area-options.ts';
import { INVISIBLE, MAYBE_INVISIBLE, normaliseArea } from './normalise-area.ts';

function normalised(text: string, options: Partial<AreaOptions> = {}): string {
  return normaliseArea(text, { ...DEFAULT_AREA_OPTIONS, ...options }).text;
}

// Each row: a written form the README lists, inside a sentence, and the sentence once it is removed.
const DATE_FORMS: readonly [form: string, text: string, expected: string][] = [
  ['year-month-day in kanji', '更新日 2026年11月22日 です', '更新日 です'],
  ['with spaces and full-width digits', '更新日 ２０２６ 年 １１ 月 ２２ 日 です', '更新日 です'],
  ['year-month', '2026年11月 の予定', 'の予定'],
  ['year', '2026年 の予定', 'の予定'],
  ['era year', '令和8年11月22日 公開', '公開'],
  ['first year of an era', '令和元年5月1日 公開', '公開'],
  ['kanji numerals, digit by digit', '公開 二〇二六年十一月二十一日（土） から', '公開 から'],
  ['kanji numerals with multipliers', '公開 二千二十六年十一月 から', '公開 から'],
  ['an era year in kanji', '令和八年十一月二十一日 公開', '公開'],
  ['a month and day in kanji', '締切 十一月二十一日 必着', '締切 必着'],
  ['a month in kanji', '十二月のお知らせ', 'のお知らせ'],
  ['an era abbreviation with dots', '更新 R8.11.21 / H31.4.30', '更新 /'],
  ['older era', '平成31年4月30日 公開', '公開'],
  ['month-day', '受付 11月22日 まで', '受付 まで'],
  ['month-day with weekday', '受付 11月22日（日） まで', '受付 まで'],
  ['weekday with holiday mark', '受付 11月23日(月・祝) まで', '受付 まで'],
  ['weekday written in full', '受付 11月22日 日曜日 まで', '受付 まで'],
  ['month alone', '11月 のお知らせ', 'のお知らせ'],
  ['era abbreviation', '届出 R8.11.22 受理', '届出 受理'],
  ['numeric y/m/d', 'posted 2026/11/22 by', 'posted by'],
  ['numeric y-m-d', 'posted 2026-11-22 by', 'posted by'],
  ['numeric y.m.d', 'posted 2026.11.22 by', 'posted by'],
  ['numeric y/m/d with weekday', 'posted 2026/11/22(Sun) by', 'posted by'],
  ['full-width numeric', '掲載 ２０２６／１１／２２ 終了', '掲載 終了'],
  ['day/month/year', 'posted 22/11/2026 by', 'posted by'],
  ['month/day/year', 'posted 11/22/2026 by', 'posted by'],
  ['year/month', 'issue 2026/11 out', 'issue out'],
  ['month/day', 'sale 11/22 only', 'sale only'],
  ['English month day, year', 'Updated Nov 22, 2026 by', 'Updated by'],
  ['English full month with ordinal', 'Updated November 22nd 2026 by', 'Updated by'],
  ['English abbreviation with dot, no year', 'Updated Nov. 22 by', 'Updated by'],
  ['English with weekday', 'Updated Sunday, November 22, 2026 by', 'Updated by'],
  ['English day month year', 'Updated 22 November 2026 by', 'Updated by'],
  ['English day of month', 'Updated 22nd of November by', 'Updated by'],
  ['RFC-style date', 'Updated Sun, 22 Nov 2026 by', 'Updated by'],
  ['English month year', 'Issue November 2026 out', 'Issue out'],
  ['relative date in Japanese', '投稿 3日前 です', '投稿 です'],
  ['relative weeks and months', '投稿 2週間前 と 3か月前', '投稿 と'],
  ['relative date in English', 'posted 3 days ago by', 'posted by'],
];

const NOT_DATES: readonly [what: string, text: string][] = [
  ['a ratio that is not a month/day', 'open 24/7'],
  ['a version number', 'version 1.2.3'],
  ['the verb may', 'you may 5 times'],
  ['a year outside 1900-2199', '1234-05 part'],
  ['a duration', '3か月 保証'],
  ['ten years in kanji', '創業 十年'],
  ['a month number out of range in kanji', '十三月'],
  ['a time', '14:05'],
];

const TIME_FORMS: readonly [form: string, text: string, expected: string][] = [
  ['hours and minutes', '発車 14:05 予定', '発車 予定'],
  ['with seconds and fraction', 'at 14:05:30.123 ok', 'at ok'],
  ['full-width colon and digits', '発車 １４：０５ 予定', '発車 予定'],
  ['am/pm', 'at 2:05 PM ok', 'at ok'],
  ['am/pm with dots', 'at 2:05 a.m. ok', 'at ok'],
  ['with time zone', 'at 14:05 JST ok', 'at ok'],
  ['with offset', 'at 14:05 UTC+9 ok', 'at ok'],
  ['hour with am/pm', 'opens 11am daily', 'opens daily'],
  ['Japanese hours and minutes', '開始 14時05分 から', '開始 から'],
  ['kanji hours and minutes', '開始 十三時五分 から', '開始 から'],
  ['kanji half past after 午後', '開始 午後二時半 から', '開始 から'],
  ['Japanese with seconds', '開始 14時5分30秒 から', '開始 から'],
  ['Japanese hour', '開始 14時 から', '開始 から'],
  ['Japanese half past', '開始 2時半 から', '開始 から'],
  ['午後 with hour and minute', '開始 午後2時5分 から', '開始 から'],
  ['午前 with hour', '開始 午前10時 から', '開始 から'],
  ['午後 with a clock time', '開始 午後2:05 から', '開始 から'],
  ['relative minutes', '更新 5分前', '更新'],
  ['relative hours', '更新 3時間前', '更新'],
  ['relative in English', 'updated 5 minutes ago', 'updated'],
];

const NOT_TIMES: readonly [what: string, text: string][] = [
  ['an aspect ratio', 'screen 16:9'],
  ['a duration in hours', '所要 3時間'],
  ['a kanji word with 時', '一時的に 一時停止 一時間'],
  ['a date', '2026/11/22'],
];

const NUMBER_FORMS: readonly [form: string, text: string, expected: string][] = [
  ['integer', '在庫 12 個', '在庫 個'],
  ['a count in kanji numerals', '応募 三百二十件', '応募 件'],
  ['yen in kanji numerals', '会費 二千円', '会費 円'],
  ['a count in circled digits (folded to digits first)', '手順 ③ まで', '手順 まで'],
  ['thousands separators and decimals', '価格 1,234.50 円', '価格 円'],
  ['full-width digits', '価格 １２３４ 円', '価格 円'],
  ['full-width separators', '価格 １，２３４．５ 円', '価格 円'],
  ['kanji multipliers mixed with digits', '売上 12万3千 円', '売上 円'],
  ['oku and man', '売上 1億2000万円', '売上 円'],
  ['negative', 'change -5 pts', 'change pts'],
  ['accounting minus mark', '前期比 ▲1,234 百万円', '前期比 百万円'],
  ['currency mark kept', 'now $12.50 only', 'now $ only'],
  ['digits inside a word', 'iPhone15 Pro', 'iPhone Pro'],
];

describe('exclude dates', () => {
  test.each(DATE_FORMS)('%s', (_form, text, expected) => {
    expect(normalised(text, { excludeDates: true })).toBe(expected);
    expect(normalised(text)).toBe(text.replace(/\s+/gu, ' '));
  });

  test.each(NOT_DATES)('leaves %s', (_what, text) => {
    expect(normalised(text, { excludeDates: true })).toBe(text);
  });
});

describe('exclude times', () => {
  test.each(TIME_FORMS)('%s', (_form, text, expected) => {
    expect(normalised(text, { excludeTimes: true })).toBe(expected);
  });

  test.each(NOT_TIMES)('leaves %s', (_what, text) => {
    expect(normalised(text, { excludeTimes: true })).toBe(text);
  });

  test('dates and times together leave neither', () => {
    expect(normalised('2026年11月22日（日） 14:05 更新', { excludeDates: true, excludeTimes: true })).toBe(
      '更新',
    );
    expect(normalised('Nov 22, 2026 2:05 PM updated', { excludeDates: true, excludeTimes: true })).toBe(
      'updated',
    );
  });
});

describe('exclude numbers', () => {
  test.each(NUMBER_FORMS)('%s', (_form, text, expected) => {
    expect(normalised(text, { excludeNumbers: true })).toBe(expected);
  });

  test('kanji numerals without a counter stay: they are also ordinary words', () => {
    expect(normalised('一覧 三十 件 一緒に', { excludeNumbers: true })).toBe('一覧 三十 件 一緒に');
  });
});

// Lines a hostile page can hold: each exclusion must read them in one pass (bench/engine.bench.ts times
// them); here, what is left of them.
describe('hostile lines', () => {
  const EVERY_EXCLUSION = { excludeDates: true, excludeTimes: true, excludeNumbers: true };
  const digits = '1'.repeat(50_000);

  test('a long digit run before 前 or ago without a unit is no relative date or time', () => {
    const dates = { excludeDates: true, excludeTimes: true };
    expect(normalised(`${digits}前`, dates)).toBe(`${digits}前`);
    expect(normalised(`${digits} ago`, dates)).toBe(`${digits} ago`);
    // Compared under exclusions, full-width digits read as half-width ones (see foldWidth).
    expect(normalised(`${'１'.repeat(50_000)}前`, dates)).toBe(`${digits}前`);
    expect(normalised(`${digits}前`, EVERY_EXCLUSION)).toBe('前');
    expect(normalised(`${digits} ago`, EVERY_EXCLUSION)).toBe('ago');
  });

  test('a long digit run with a unit is one relative date or time, removed whole', () => {
    expect(normalised(`x ${digits}日前 y`, { excludeDates: true })).toBe('x y');
    expect(normalised(`x ${digits} days ago y`, { excludeDates: true })).toBe('x y');
    expect(normalised(`x ${digits}時間前 y`, { excludeTimes: true })).toBe('x y');
    expect(normalised(`x ${digits} minutes ago y`, { excludeTimes: true })).toBe('x y');
  });

  test('runs of separators hold no date or time; their digits are numbers', () => {
    for (const unit of ['1/', '12.', '2026-', '1:', '1,']) {
      const line = unit.repeat(20_000);
      expect(normalised(line, { excludeDates: true, excludeTimes: true })).toBe(line);
    }
    expect(normalised('1/'.repeat(20_000), EVERY_EXCLUSION)).toBe('/'.repeat(20_000));
    expect(normalised(`1${'/'.repeat(50_000)}1`, EVERY_EXCLUSION)).toBe('/'.repeat(50_000));
  });

  test('kanji numerals stay; kanji multipliers go with their digits', () => {
    const kanji = '一二三四五六七八九十百千万億兆'.repeat(5_000);
    expect(normalised(kanji, EVERY_EXCLUSION)).toBe(kanji);
    expect(normalised(`1${'万'.repeat(50_000)}x`, EVERY_EXCLUSION)).toBe('x');
    expect(normalised('1万'.repeat(20_000), EVERY_EXCLUSION)).toBe('');
  });

  test('repeated era names stay; repeated era years go', () => {
    expect(normalised('令和'.repeat(30_000), EVERY_EXCLUSION)).toBe('令和'.repeat(30_000));
    expect(normalised('令和1年'.repeat(20_000), { excludeDates: true })).toBe('');
    expect(normalised('1時'.repeat(20_000), { excludeTimes: true })).toBe('');
  });
});

describe('exclude words', () => {
  test('removes each word, ignoring case, longest first', () => {
    expect(normalised('SALE price and sale', { excludeWords: ['sale', 'sale price'] })).toBe('and');
  });

  test('Latin words match whole words only; Japanese words match anywhere', () => {
    expect(normalised('wholesale sale', { excludeWords: ['sale'] })).toBe('wholesale');
    expect(normalised('本日限定セール開催', { excludeWords: ['限定'] })).toBe('本日セール開催');
  });

  test('characters with regex meaning are taken literally', () => {
    expect(normalised('a.b a+b (x)', { excludeWords: ['a.b', '(x)'] })).toBe('a+b');
  });
});

describe('width folding under exclusions', () => {
  test('excluded words match across full and half width, either way round', () => {
    expect(normalised('ＳＡＬＥ 開催', { excludeWords: ['sale'] })).toBe('開催');
    expect(normalised('Sale 開催', { excludeWords: ['ＳＡＬＥ'] })).toBe('開催');
    expect(normalised('ｾｰﾙ 開催', { excludeWords: ['セール'] })).toBe('開催');
    expect(normalised('限定ｾｰﾙ開催', { excludeWords: ['ｾｰﾙ'] })).toBe('限定開催');
  });

  test('emoji variation selectors are ignored', () => {
    expect(normalised('人気❤️ 商品', { excludeWords: ['人気❤'] })).toBe('商品');
    expect(normalised('人気❤ 商品', { excludeWords: ['人気❤\uFE0F'] })).toBe('商品');
  });

  test('text compared under an exclusion is folded; without one it is kept as written', () => {
    expect(normalised('ＳＡＬＥ ｶﾀｶﾅ ❤️ 在庫 ３ 点', { excludeNumbers: true })).toBe(
      'SALE カタカナ ❤ 在庫 点',
    );
    expect(normalised('ＳＡＬＥ ｶﾀｶﾅ ❤️')).toBe('ＳＡＬＥ ｶﾀｶﾅ ❤️');
  });
});

describe('exclude regexes (Python syntax)', () => {
  test('removes matches on each line, seeing the text before dates and numbers are removed', () => {
    const options = { excludeRegexes: [String.raw`閲覧数\s*\d+`], excludeNumbers: true };
    expect(normalised('記事A 閲覧数 120\n記事B 価格 300円', options)).toBe('記事A\n記事B 価格 円');
  });

  test('^ and $ anchor at each line', () => {
    expect(normalised('PR 広告\n本文 PR', { excludeRegexes: ['^PR'] })).toBe('広告\n本文 PR');
  });

  test('a removal that joins text into a new match is repeated until nothing changes', () => {
    expect(normalised('aaabbb', { excludeRegexes: ['ab'] })).toBe('');
  });
});

describe('whitespace and invisible characters', () => {
  test('runs of spaces, tabs, NBSP and ideographic spaces become one space; lines are trimmed', () => {
    expect(normalised('  a\t\u00a0b\u3000 c  ')).toBe('a b c');
    expect(normalised('  a   b c  ')).toBe('a b c');
    expect(normalised('在庫 12 個 3 点', { excludeNumbers: true })).toBe('在庫 個 点');
  });

  test('zero-width spaces, joiners, soft hyphens and BOMs are removed', () => {
    expect(normalised('在\u200b庫\u200dあ\u00adり\ufeff')).toBe('在庫あり');
  });

  test('every invisible character is one the quick test lets through to the exact removal', () => {
    // Tested one code point at a time, as the Unicode data Node ships may add format characters.
    const exact = new RegExp(INVISIBLE.source, 'u');
    const missed: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      if (exact.test(character) && !MAYBE_INVISIBLE.test(character)) missed.push(code.toString(16));
    }
    expect(missed).toEqual([]);
    expect(MAYBE_INVISIBLE.test('在庫あり ＳＡＬＥ 2026年 ❤')).toBe(false);
  });

  test('blank lines are dropped and line breaks of any kind split lines', () => {
    expect(normaliseArea('a\r\n\r\n  \nb\rc\u2028d', DEFAULT_AREA_OPTIONS).lines).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
  });

  test('composed and decomposed kana compare equal', () => {
    expect(normalised('\u304b\u3099')).toBe(normalised('\u304c'));
  });
});

describe('content hash', () => {
  test('is equal exactly when only whitespace differs', () => {
    const hash = (text: string) => normaliseArea(text, DEFAULT_AREA_OPTIONS).contentHash;
    expect(hash('在庫 あり\n価格')).toBe(hash('在庫あり 価格'));
    expect(hash('在庫あり')).not.toBe(hash('在庫なし'));
    expect(hash('x')).toMatch(/^[0-9a-f]{64}$/);
  });

  test('ignores what the options exclude', () => {
    const options = { ...DEFAULT_AREA_OPTIONS, excludeNumbers: true };
    expect(normaliseArea('在庫 3 個', options).contentHash).toBe(
      normaliseArea('在庫 12 個', options).contentHash,
    );
  });
});
