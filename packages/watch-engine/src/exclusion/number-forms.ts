import { DIGIT } from './digit-forms.ts';
import { type ExclusionForm, form } from './exclusion-form.ts';

const D = DIGIT;
const DIGITS = `${D}+(?:[,，.．]${D}+)*`;

/**
 * Every number written with digits: separators, decimals, a sign or the ▲/△ minus marks of Japanese
 * accounts, and kanji multipliers attached to digits (12万3千). Currency marks and units stay.
 */
export const NUMBER_FORM: ExclusionForm = form(
  'number',
  `(?:(?<![\\p{L}\\p{N}])[\\-−－+＋▲△][ \\u3000]?)?${DIGITS}(?:[十百千万億兆]+(?:${DIGITS})?)*`,
);
