// Numbers written in kanji: 十一月二十一日, 二〇二六年, 十三時五分, 三百二十件. A numeral is digit
// kanji (〇 to 九) read place by place (二〇二六) or with 十 百 千 (and 万 above them) as
// multipliers (二千二十六). Alone they are also ordinary words (一覧, 一緒, 十分), so the forms take
// them only before a date, time or counter mark.

const DIGIT_VALUE: Record<string, number> = {
  〇: 0,
  零: 0,
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const SMALL_UNIT: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
const LARGE_UNIT: Record<string, number> = { 万: 10_000, 億: 100_000_000 };

/** One kanji numeral character (digits and multipliers). */
export const KANJI_NUMERAL = '[〇零一二三四五六七八九十百千万億]';
/** Characters every kanji numeral match contains one of (for the forms' triggers). */
export const KANJI_NUMERAL_CHARACTERS = '〇零一二三四五六七八九十百千万億';

/** The value of a kanji numeral; NaN when it is not one (a multiplier out of order still reads). */
export function kanjiValue(numeral: string): number {
  if (!/[十百千万億]/u.test(numeral)) {
    // Place by place: 二〇二六 is 2026.
    let value = 0;
    for (const character of numeral) {
      const digit = DIGIT_VALUE[character];
      if (digit === undefined) return Number.NaN;
      value = value * 10 + digit;
    }
    return numeral === '' ? Number.NaN : value;
  }
  let total = 0;
  let section = 0;
  let pending: number | null = null;
  for (const character of numeral) {
    const digit = DIGIT_VALUE[character];
    const small = SMALL_UNIT[character];
    const large = LARGE_UNIT[character];
    if (digit !== undefined) pending = (pending ?? 0) * 10 + digit;
    else if (small !== undefined) {
      section += (pending ?? 1) * small;
      pending = null;
    } else if (large !== undefined) {
      total += (section + (pending ?? 0) || 1) * large;
      section = 0;
      pending = null;
    } else return Number.NaN;
  }
  return total + section + (pending ?? 0);
}
