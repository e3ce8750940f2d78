/** Spec section 5: at least 8 half-width alphanumerics and symbols. */
export const MIN_PASSWORD_LENGTH = 8;

export type CredentialProblem = 'invalid_email' | 'password_too_short' | 'invalid_password';

// Deliberately permissive (one @, a dot in the domain, no spaces): the verification mail is
// the real test of an address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HALF_WIDTH_PRINTABLE = /^[\x21-\x7e]+$/;

export function checkEmail(email: string): CredentialProblem | null {
  return email.length <= 254 && EMAIL.test(email) ? null : 'invalid_email';
}

export function checkPassword(password: string): CredentialProblem | null {
  if (!HALF_WIDTH_PRINTABLE.test(password)) return 'invalid_password';
  if (password.length < MIN_PASSWORD_LENGTH) return 'password_too_short';
  return null;
}
