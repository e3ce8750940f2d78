import { DIGIT } from './digit-forms.ts';
import { type ExclusionForm, form } from './exclusion-form.ts';
import { KANJI_NUMERAL, KANJI_NUMERAL_CHARACTERS } from './kanji-numerals.ts';

const D = DIGIT;
const DIGITS = `${D}+(?:[,，.．]${D}+)*`;
const SIGN = '[\\-−－+＋▲△]';
const COUNTER =
  '(?:件|人|名|個|点|回|本|枚|冊|台|円|歳|位|社|店|軒|通|品|種|泊|日間|か月|ヶ月|カ月|年間|週間|時間|分間|秒)';
const HAS_KANJI_COUNT = new RegExp(`${KANJI_NUMERAL}${COUNTER}`, 'u');

/**
 * Every number written with digits: separators, decimals, a sign or the ▲/△ minus marks of Japanese
 * accounts, and kanji multipliers attached to digits (12万3千). Currency marks and units stay.
 *
 * The sign is matched before the look back at the character before it (the same condition, seen from
 * after the sign): a regex that starts with a look back is tried at every position, this one only at
 * signs and digits, two to three times faster.
 */
export const NUMBER_FORM: ExclusionForm = form(
  'number',
  `(?:${SIGN}(?<![\\p{L}\\p{N}]${SIGN})[ \\u3000]?)?${DIGITS}(?:[十百千万億兆]+(?:${DIGITS})?)*`,
);

/**
 * Counts in kanji numerals: a numeral directly before a counter (三百二十件, 五人, 二千円). The
 * counter stays, as units do after digits; a numeral alone is left (一覧, 三十 alone are words too),
 * and so are multipliers alone (1,234 百万円: a unit, which NUMBER_FORM leaves; 千円 too).
 */
export const KANJI_COUNT_FORM: ExclusionForm = form(
  'kanji count',
  `(?<![〇零一二三四五六七八九十百千万億])(?=[百千万億]*[〇零一二三四五六七八九十])${KANJI_NUMERAL}+(?=${COUNTER})`,
  { triggers: KANJI_NUMERAL_CHARACTERS, hint: HAS_KANJI_COUNT },
);
