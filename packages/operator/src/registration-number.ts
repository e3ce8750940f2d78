/**
 * The qualified-invoice registration number (適格請求書発行事業者登録番号): "T" and 13 digits. A
 * corporation's 13 digits are its 法人番号; a sole proprietor's are a number from the same range
 * that never collides with one. The first digit checks the other twelve (法人番号の指定等に関する
 * 省令 第二条): 9 − (Σ Pn × Qn mod 9), Pn the n-th digit counted from the lowest, Qn 1 for odd n and
 * 2 for even n.
 */
const REGISTRATION_SHAPE = /^T[0-9]{13}$/;

/** The check digit of a 12-digit base number, or null when the base is not 12 digits. */
export function registrationCheckDigit(base: string): number | null {
  if (!/^[0-9]{12}$/.test(base)) return null;
  let sum = 0;
  for (let n = 1; n <= 12; n += 1) {
    const digit = Number(base[12 - n]);
    sum += digit * (n % 2 === 1 ? 1 : 2);
  }
  return 9 - (sum % 9);
}

/**
 * The number as it is printed ("T" and 13 digits), from the ways people write it: upper or lower
 * case, with spaces or hyphens between the groups, full-width characters from a Japanese IME.
 */
export function normaliseRegistrationNumber(input: string): string {
  return input
    .normalize('NFKC')
    .replace(/[\s\-‐‑–—ー]/g, '')
    .toUpperCase();
}

/** Whether the input, once normalised, is a registration number whose check digit holds. */
export function isRegistrationNumber(input: string): boolean {
  const number = normaliseRegistrationNumber(input);
  if (!REGISTRATION_SHAPE.test(number)) return false;
  return registrationCheckDigit(number.slice(2)) === Number(number[1]);
}
