import { DIGIT } from './digit-forms.ts';
import { type ExclusionForm, form } from './exclusion-form.ts';

const D = DIGIT;
const DIGITS = `${D}+(?:[,，.．]${D}+)*`;
const SIGN = '[\\-−－+＋▲△]';

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
