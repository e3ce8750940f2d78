// Building blocks shared by the date, time and number forms. Half-width and full-width digits are both
// written on Japanese pages, often in the same sentence.
export const DIGIT = '[0-9\\uFF10-\\uFF19]';
export const NOT_AFTER_DIGIT = '(?<![0-9\\uFF10-\\uFF19])';
export const NOT_BEFORE_DIGIT = '(?![0-9\\uFF10-\\uFF19])';
export const SPACE = '[ \\u3000]?';

/** Full-width digits replaced by their half-width forms. */
export function asciiDigits(text: string): string {
  return text.replace(/[\uFF10-\uFF19]/g, (c) => String(c.charCodeAt(0) - 0xff10));
}

/** The integer value of a run of half-width or full-width digits (called for every date and time found). */
export function digitValue(digits: string): number {
  let value = 0;
  for (let k = 0; k < digits.length; k++) {
    const code = digits.charCodeAt(k);
    value = value * 10 + (code >= 0xff10 ? code - 0xff10 : code - 0x30);
  }
  return value;
}
