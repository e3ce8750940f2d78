/** Checks of the free-text and choice fields of the account and support screens. */
export type FieldProblem =
  | 'name_too_long'
  | 'invalid_name'
  | 'invalid_lang'
  | 'invalid_timezone'
  | 'invalid_currency'
  | 'notes_too_long'
  | 'invalid_notes'
  | 'invalid_support_type';

export const MAX_NAME_LENGTH = 100;
export const MAX_NOTES_LENGTH = 2000;

// Letters and digits of any script plus the punctuation names use, and emoji (a team's name is
// often "🍣 Sushi team"): pictographs, their skin tones, flags, keycaps and the joiner that builds
// 👩‍💻. Markup (<>), statement separators (;), quotes other than the apostrophe and control
// characters are refused, so a name can be shown and mailed anywhere without surprises
// (docs/product.md#account).
const NAME =
  /^(?:[\p{L}\p{M}\p{N} .,'\-・ー()&\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}]|\u200D|\u20E3)*$/u;
// The joiner only inside an emoji sequence: alone it hides between letters.
const STRAY_JOINER =
  /(?<!\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F)?)\u200D|\u200D(?!\p{Extended_Pictographic})/u;
const NOTES_FORBIDDEN = /[\p{Cc}\p{Cf}]/u;

export function checkName(name: string): FieldProblem | null {
  if (name.length > MAX_NAME_LENGTH) return 'name_too_long';
  if (!NAME.test(name) || STRAY_JOINER.test(name) || name !== name.normalize('NFC')) return 'invalid_name';
  return null;
}

export function checkLang(lang: string): FieldProblem | null {
  return lang === 'ja' || lang === 'en' ? null : 'invalid_lang';
}

/** The sign-up language decides the account's currency (docs/product.md#prices). */
export function currencyForLang(lang: 'ja' | 'en'): 'JPY' | 'USD' {
  return lang === 'en' ? 'USD' : 'JPY';
}

export function checkCurrency(currency: string): FieldProblem | null {
  return currency === 'JPY' || currency === 'USD' ? null : 'invalid_currency';
}

/** An IANA zone the runtime knows (Asia/Tokyo, Etc/GMT-9, UTC). */
export function checkTimezone(timezone: string): FieldProblem | null {
  if (timezone.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timezone)) return 'invalid_timezone';
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return null;
  } catch {
    return 'invalid_timezone';
  }
}

/** Notes keep line breaks and tabs; other control and format characters are refused. */
export function checkNotes(notes: string): FieldProblem | null {
  if (notes.length > MAX_NOTES_LENGTH) return 'notes_too_long';
  if (NOTES_FORBIDDEN.test(notes.replace(/[\n\r\t]/g, ''))) return 'invalid_notes';
  return null;
}

export const SUPPORT_TYPES = ['navigation', 'login_action', 'area', 'notification', 'other'] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];

export function checkSupportType(type: string): FieldProblem | null {
  return (SUPPORT_TYPES as readonly string[]).includes(type) ? null : 'invalid_support_type';
}
