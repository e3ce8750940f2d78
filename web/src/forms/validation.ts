/** Field checks of docs/product.md#account, done before asking the gateway; codes match the gateway's. */

export const MIN_PASSWORD_LENGTH = 8;

/** Same shape the account service accepts: something@domain.tld without spaces. */
export function emailProblem(email: string): 'invalid_email' | undefined {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? undefined : 'invalid_email';
}

/** Half-width alphanumerics and symbols (printable ASCII), at least 8 of them. */
export function passwordProblem(password: string): 'password_too_short' | 'invalid_password' | undefined {
  if (!/^[\x21-\x7e]*$/.test(password)) return 'invalid_password';
  if (password.length < MIN_PASSWORD_LENGTH) return 'password_too_short';
  return undefined;
}
