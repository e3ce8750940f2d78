import { describe, expect, test } from 'vitest';
import { DATE_FORMS } from './date-forms.ts';
import { formRemover } from './exclusion-form.ts';
import { TIME_FORMS } from './time-forms.ts';

// Every written form the README lists, in Japanese and English, half- and full-width.
const SAMPLES = [
  '2026年11月22日（日）',
  '令和元年5月1日',
  '平成31年4月30日',
  '11月22日 日曜日',
  '11月',
  'R8.11.22',
  'H31/4/30',
  '２０２６／１１／２２(Sun)',
  '2026-11-22 2026.11.22',
  '22/11/2026 11/22/2026',
  '2026/11',
  '11/22（祝）',
  'Sunday, November 22, 2026',
  'Nov. 22',
  '22nd of November',
  'Sun, 22 Nov 2026',
  'November 2026',
  '3日前 2週間前 3か月前 1年後 3 days ago 2 WEEKS AGO',
  '14:05:30.123 １４：０５ 午後2:05 2:05 a.m. 14:05 JST 14:05 UTC+9',
  '11am 2 PM',
  '14時05分 14時5分30秒 14時 2時半 午後2時5分 午前10時',
  '5分前 30秒前 3時間前 5 minutes ago 2 hrs Ago',
  '二〇二六年十一月二十一日（土） 令和八年 二千二十六年',
  '十一月二十一日 十一月',
  '十三時五分 午後二時半 三時',
];

describe('form prefilters', () => {
  test.each([...DATE_FORMS, ...TIME_FORMS].map((form) => [form.name, form] as const))(
    '%s: every match holds a trigger and passes the hint',
    (_name, form) => {
      const regex = new RegExp(form.source, 'gu');
      const matches = SAMPLES.flatMap((sample) => sample.match(regex) ?? []);
      expect(matches.length).toBeGreaterThan(0);
      for (const match of matches) {
        expect([...(form.triggers ?? '')].some((character) => match.includes(character))).toBe(true);
        expect(form.hint?.test(match) ?? true).toBe(true);
      }
    },
  );

  test('a line without a form’s triggers keeps what only that form would remove', () => {
    const remove = formRemover(DATE_FORMS);
    expect(remove('在庫 2026年11月22日 R8.11.22 Nov 22, 2026')).toBe('在庫   ');
    expect(remove('在庫 2026 11 22')).toBe('在庫 2026 11 22');
  });
});
