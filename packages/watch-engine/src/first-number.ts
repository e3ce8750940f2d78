import { asciiDigits, DIGIT } from './exclusion/digit-forms.ts';

const D = DIGIT;
const GROUPED = `${D}+(?:[,，]${D}{3}(?!${D}))*`;
const FIRST_NUMBER = new RegExp(
  `(?<sign>(?<![\\p{L}\\p{N}])[\\-−－▲△][ \\u3000]?)?` +
    `(?:(?<currency>[¥￥$＄]|(?<![A-Za-z])(?:USD|JPY)(?![A-Za-z]))[ \\u3000]?(?<currencySign>[\\-−－])?)?` +
    `(?<integer>${GROUPED})(?<fraction>[.．]${D}+)?` +
    `(?<kanji>(?:[十百千万億兆](?:${GROUPED}(?:[.．]${D}+)?)?)+)?` +
    `(?<scale>[ \\u3000]?(?:thousand|million|billion|trillion)(?![A-Za-z]))?`,
  'iu',
);
const KANJI_PART = new RegExp(`([十百千万億兆])(${GROUPED}(?:[.．]${D}+)?)?`, 'gu');
const SMALL_UNIT: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
const LARGE_UNIT: Record<string, number> = { 万: 1e4, 億: 1e8, 兆: 1e12 };
const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

/**
 * The first number in `text`, or null when there is none. Reads half- and full-width digits, thousands
 * separators, decimals, a leading minus (-, −, －, or the ▲/△ marks of Japanese accounts), currency marks
 * before the number (¥ ￥ $ ＄ USD JPY; 円 and other units after it are simply not part of it), kanji
 * multipliers after digits (12万3千 = 123000, 1.5億) and English scale words (2.5 million). Never throws.
 */
export function firstNumber(text: string): number | null {
  const match = FIRST_NUMBER.exec(text);
  const groups = match?.groups;
  if (!groups?.integer) return null;
  let value = decimalValue(groups.integer + (groups.fraction ?? ''));
  if (groups.kanji) value = withKanjiUnits(value, groups.kanji);
  if (groups.scale) value *= SCALE[groups.scale.trim().toLowerCase()] ?? 1;
  if (groups.sign || groups.currencySign) value = -value;
  return Number.isFinite(value) ? value : null;
}

/** '1,234.5' or '１，２３４．５' as a number. */
function decimalValue(written: string): number {
  return Number(asciiDigits(written.replace(/[,，]/g, '').replace('．', '.')));
}

/** Japanese numbering: 千 百 十 build a section below 10,000 that 万 億 兆 then scale. */
function withKanjiUnits(leading: number, kanji: string): number {
  let total = 0;
  let section = 0;
  let pending: number | undefined = leading;
  for (const [, unit = '', next] of kanji.matchAll(KANJI_PART)) {
    const small = SMALL_UNIT[unit];
    if (small !== undefined) {
      section += (pending ?? 1) * small;
    } else {
      const sectionValue = section + (pending ?? 0);
      total += (sectionValue === 0 ? 1 : sectionValue) * (LARGE_UNIT[unit] ?? 1);
      section = 0;
    }
    pending = next === undefined ? undefined : decimalValue(next);
  }
  return total + section + (pending ?? 0);
}
