import { DIGIT, NOT_AFTER_DIGIT, NOT_BEFORE_DIGIT, SPACE } from './digit-forms.ts';
import { type ExclusionForm, form } from './exclusion-form.ts';
import { KANJI_NUMERAL } from './kanji-numerals.ts';

const D = DIGIT;
const ERA = '(?:令和|平成|昭和|大正|明治)';
// A weekday written after a Japanese or numeric date: 11月22日（日）, 2026/11/22(Sun), 11/22（祝）.
const WEEKDAY_AFTER = `(?:${SPACE}[(（](?:[月火水木金土日](?:曜日?)?|祝日?|(?=[A-Z])(?i:mon|tue|wed|thu|fri|sat|sun)[a-z]*\\.?)(?:[・･][祝休]日?)?[)）]|${SPACE}[月火水木金土日]曜日)?`;
// English names must start with a capital so that the verb 'may' is not taken for a month.
const MONTH =
  '(?<![A-Za-z])(?=[A-Z])(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![A-Za-z])\\.?';
const WEEKDAY_BEFORE =
  '(?:(?<![A-Za-z])(?=[A-Z])(?i:mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(?i:day)?(?![A-Za-z])\\.?,?\\s+)?';
const ORDINAL = '(?:st|nd|rd|th)?(?![A-Za-z])';
const YEAR4 = `(?<y>${D}{4})${NOT_BEFORE_DIGIT}`;
// What may follow an English month and day: its comma, then a year. Only 1900–2199 (the range
// check's years) joins the date, and the comma goes whether a year follows or not, so a change of
// the number after a date ('Nov 22, 2026' → 'Nov 22, 0000') never leaves a different remainder.
const OPTIONAL_YEAR = `,?(?:\\s*(?<y>(?:[1\\uFF11][9\\uFF19]|[2\\uFF12][01\\uFF10\\uFF11])${D}{2})${NOT_BEFORE_DIGIT})?`;
const NUMERIC_SEPARATOR = '[/／\\-－.．]';
// Hints: text every match of the form contains (see ExclusionForm), as close to the form as is cheap.
// Triggers: characters every match contains one of (a month name starts with a capital, see MONTH).
const SEPARATORS = '/／-－.．';
const MONTH_INITIALS = 'JFMASOND';
const HAS_YEAR_MARK = /年/;
const HAS_MONTH_AND_DAY = /月[ \u3000]?[0-9\uFF10-\uFF19]/;
const HAS_MONTH_MARK = /[0-9\uFF10-\uFF19][ \u3000]?月/;
const HAS_ERA_LETTER = /[RHSTM][0-9\uFF10-\uFF19]/;
const HAS_YEAR_FIRST = /[0-9\uFF10-\uFF19]{4}[/／\-－.．]/;
const HAS_YEAR_LAST = /[/／\-－.．][0-9\uFF10-\uFF19]{4}/;
const HAS_YEAR_MONTH = /[0-9\uFF10-\uFF19]{4}[/／\-－]/;
const HAS_SLASH = /[0-9\uFF10-\uFF19][/／][0-9\uFF10-\uFF19]/;
const HAS_MONTH_NAME = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
const HAS_RELATIVE = /[前後]|ago/i;
const K = KANJI_NUMERAL;
const HAS_KANJI_YEAR = /[〇一二三四五六七八九十百千元][ \u3000]?年/u;
const HAS_KANJI_MONTH = /[一二三四五六七八九十][ \u3000]?月/u;

/** Dates in Japanese and English forms; the README lists each with an example. */
export const DATE_FORMS: readonly ExclusionForm[] = [
  form(
    'japanese year-month-day',
    `(?:${ERA}${SPACE}(?:元|${D}{1,2})|${NOT_AFTER_DIGIT}(?<y>${D}{4}))${SPACE}年(?:${SPACE}(?<m>${D}{1,2})${SPACE}月(?:${SPACE}(?<d>${D}{1,2})${SPACE}日)?)?${WEEKDAY_AFTER}`,
    { triggers: '年', hint: HAS_YEAR_MARK },
  ),
  form(
    'japanese month-day',
    `${NOT_AFTER_DIGIT}(?<m>${D}{1,2})${SPACE}月${SPACE}(?<d>${D}{1,2})${SPACE}日${WEEKDAY_AFTER}`,
    { triggers: '月', hint: HAS_MONTH_AND_DAY },
  ),
  form('japanese month', `${NOT_AFTER_DIGIT}(?<m>${D}{1,2})${SPACE}月(?!${SPACE}${D})`, {
    triggers: '月',
    hint: HAS_MONTH_MARK,
  }),
  form(
    'japanese era abbreviation',
    `(?<![A-Za-z])[RHSTM]${D}{1,2}[./／．](?<m>${D}{1,2})[./／．](?<d>${D}{1,2})${NOT_BEFORE_DIGIT}${WEEKDAY_AFTER}`,
    { triggers: 'RHSTM', hint: HAS_ERA_LETTER },
  ),
  form(
    'numeric year-month-day',
    `${NOT_AFTER_DIGIT}(?<y>${D}{4})(?<s>${NUMERIC_SEPARATOR})(?<m>${D}{1,2})\\k<s>(?<d>${D}{1,2})${NOT_BEFORE_DIGIT}${WEEKDAY_AFTER}`,
    { triggers: SEPARATORS, hint: HAS_YEAR_FIRST },
  ),
  form(
    'numeric day-month-year or month-day-year',
    `${NOT_AFTER_DIGIT}(?<p>${D}{1,2})(?<s>${NUMERIC_SEPARATOR})(?<q>${D}{1,2})\\k<s>${YEAR4}${WEEKDAY_AFTER}`,
    { triggers: SEPARATORS, hint: HAS_YEAR_LAST },
  ),
  form(
    'numeric year-month',
    `${NOT_AFTER_DIGIT}(?<![/／\\-－.．])(?<y>${D}{4})[/／\\-－](?<m>${D}{1,2})${NOT_BEFORE_DIGIT}(?![/／\\-－.．]${D})`,
    { triggers: '/／-－', hint: HAS_YEAR_MONTH },
  ),
  form(
    'numeric month/day',
    `${NOT_AFTER_DIGIT}(?<![/／.．])(?<m>${D}{1,2})[/／](?<d>${D}{1,2})${NOT_BEFORE_DIGIT}(?![/／.．,，]${D})${WEEKDAY_AFTER}`,
    { triggers: '/／', hint: HAS_SLASH },
  ),
  form(
    'english month day year',
    `${WEEKDAY_BEFORE}${MONTH}\\s*(?<d>${D}{1,2})${NOT_BEFORE_DIGIT}${ORDINAL}${OPTIONAL_YEAR}`,
    { triggers: MONTH_INITIALS, hint: HAS_MONTH_NAME },
  ),
  form(
    'english day month year',
    `${WEEKDAY_BEFORE}${NOT_AFTER_DIGIT}(?<d>${D}{1,2})${ORDINAL}\\s*(?:of\\s+)?${MONTH}${OPTIONAL_YEAR}`,
    { triggers: MONTH_INITIALS, hint: HAS_MONTH_NAME },
  ),
  form('english month year', `${MONTH},?\\s*${YEAR4}`, {
    triggers: MONTH_INITIALS,
    hint: HAS_MONTH_NAME,
  }),
  // Kanji numerals: 二〇二六年十一月二十一日, 令和八年, 十一月二十一日（土）. The groups ky km kd are
  // read as kanji and range-checked like y m d.
  form(
    'kanji year-month-day',
    `(?:${ERA}${SPACE}(?:元|(?<ke>${K}{1,3}))|(?<![〇零一二三四五六七八九十百千万億])(?<ky>${K}{2,6}))${SPACE}年(?:${SPACE}(?<km>${K}{1,3})${SPACE}月(?:${SPACE}(?<kd>${K}{1,4})${SPACE}日)?)?${WEEKDAY_AFTER}`,
    { triggers: '年', hint: HAS_KANJI_YEAR },
  ),
  form(
    'kanji month-day or month',
    `(?<![〇零一二三四五六七八九十百千万億])(?<km>${K}{1,3})${SPACE}月(?:${SPACE}(?<kd>${K}{1,4})${SPACE}日${WEEKDAY_AFTER})?`,
    { triggers: '月', hint: HAS_KANJI_MONTH },
  ),
  form(
    'relative date',
    `${NOT_AFTER_DIGIT}${D}+(?:${SPACE}(?:日|週間|週|か月|ヶ月|カ月|ヵ月|ケ月|年)${SPACE}[前後]|\\s?(?i:days?|weeks?|months?|years?)\\s+(?i:ago)(?![A-Za-z]))`,
    { triggers: '前後aA', hint: HAS_RELATIVE },
  ),
];
