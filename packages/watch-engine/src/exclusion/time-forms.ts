import { DIGIT, NOT_AFTER_DIGIT, NOT_BEFORE_DIGIT, SPACE } from './digit-forms.ts';
import { type ExclusionForm, form } from './exclusion-form.ts';
import { KANJI_NUMERAL } from './kanji-numerals.ts';

const D = DIGIT;
// Hints: text every match of the form contains (see ExclusionForm), as close to the form as is cheap.
const HAS_COLON = /[0-9\uFF10-\uFF19][:：][0-9\uFF10-\uFF19]/;
const HAS_AM_PM = /[AaPp]\.?[Mm]/;
const HAS_HOUR_MARK = /[0-9\uFF10-\uFF19][ \u3000]?時/;
const HAS_RELATIVE = /前|ago/i;
const K = KANJI_NUMERAL;
const HAS_KANJI_HOUR = /[〇一二三四五六七八九十][ \u3000]?時/u;
const MERIDIEM = '(?:午前|午後)';
const AM_PM = '(?i:[ap]\\.?m\\.?)(?![A-Za-z])';
const ZONE = `(?:\\s?(?:JST|UTC|GMT|Z)(?:[+\\-]${D}{1,2}(?::?${D}{2})?)?(?![A-Za-z]))?`;

/** Times of day in Japanese and English forms; the README lists each with an example. */
export const TIME_FORMS: readonly ExclusionForm[] = [
  form(
    'clock time',
    `(?:${MERIDIEM}${SPACE})?${NOT_AFTER_DIGIT}(?<h>${D}{1,2})[:：](?<n>${D}{2})(?:[:：]${D}{2}(?:[.．]${D}{1,6})?)?${NOT_BEFORE_DIGIT}(?:\\s?${AM_PM})?${ZONE}`,
    { triggers: ':：', hint: HAS_COLON },
  ),
  form('hour with am/pm', `${NOT_AFTER_DIGIT}(?<h>${D}{1,2})\\s?${AM_PM}`, {
    triggers: 'aApP',
    hint: HAS_AM_PM,
  }),
  form(
    'japanese time',
    `(?:${MERIDIEM}${SPACE})?${NOT_AFTER_DIGIT}(?<h>${D}{1,2})${SPACE}時(?!間)(?:${SPACE}(?:(?<n>${D}{1,2})${SPACE}分(?:${SPACE}${D}{1,2}${SPACE}秒)?|半))?`,
    { triggers: '時', hint: HAS_HOUR_MARK },
  ),
  form(
    'kanji time',
    `(?:${MERIDIEM}${SPACE})?(?<![〇零一二三四五六七八九十百千万億])(?<kh>${K}{1,3})${SPACE}時(?![間的停保金期])(?:${SPACE}(?:(?<kn>${K}{1,3})${SPACE}分(?:${SPACE}${K}{1,3}${SPACE}秒)?|半))?`,
    { triggers: '時', hint: HAS_KANJI_HOUR },
  ),
  form(
    'relative time',
    `${NOT_AFTER_DIGIT}${D}+(?:${SPACE}(?:秒|分|時間)${SPACE}前|\\s?(?i:seconds?|secs?|minutes?|mins?|hours?|hrs?)\\s+(?i:ago)(?![A-Za-z]))`,
    { triggers: '前aA', hint: HAS_RELATIVE },
  ),
];
