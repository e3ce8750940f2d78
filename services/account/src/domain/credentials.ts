/** docs/product.md#account: at least 8 half-width alphanumerics and symbols. */
export const MIN_PASSWORD_LENGTH = 8;
/** argon2 takes any length; a cap keeps a megabyte "password" from costing a megabyte of hashing. */
export const MAX_PASSWORD_LENGTH = 128;
const MAX_EMAIL_LENGTH = 254;

export type CredentialProblem =
  | 'invalid_email'
  | 'email_confusable'
  | 'password_too_short'
  | 'password_too_long'
  | 'invalid_password';

// Deliberately permissive (one @, a dot in the domain, no spaces): the verification mail is
// the real test of an address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HALF_WIDTH_PRINTABLE = /^[\x21-\x7e]+$/;
// Control, format (zero-width, bidi overrides) and unassigned characters never belong in an address.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}]/u;
const LATIN = /\p{Script=Latin}/u;
const LOOKALIKE_SCRIPTS = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}]/u;

/**
 * Refuses addresses that read like another one: full-width forms (`ｕｓｅｒ＠example.com`, which
 * NFKC folds to ASCII) and labels mixing Latin with Cyrillic or Greek look-alikes
 * (`pаypal.com` with a Cyrillic а). Japanese addresses (`ユーザー@例え.jp`) stay valid.
 */
export function checkEmail(email: string): CredentialProblem | null {
  if (email.length > MAX_EMAIL_LENGTH || INVISIBLE.test(email)) return 'invalid_email';
  if (email.normalize('NFKC') !== email) return 'email_confusable';
  if (!EMAIL.test(email)) return 'invalid_email';
  const labels = email.split(/[@.]/);
  if (labels.some((label) => LATIN.test(label) && LOOKALIKE_SCRIPTS.test(label))) return 'email_confusable';
  return null;
}

/** The form an address is compared and stored in: trimmed, as typed otherwise. */
export function normaliseEmail(email: string): string {
  return email.trim();
}

export function checkPassword(password: string): CredentialProblem | null {
  if (password.length > MAX_PASSWORD_LENGTH) return 'password_too_long';
  if (!HALF_WIDTH_PRINTABLE.test(password)) return 'invalid_password';
  if (password.length < MIN_PASSWORD_LENGTH) return 'password_too_short';
  return null;
}
