/**
 * Sliding-window limits on failed sign-ins, counted in the database so every replica sees
 * the same numbers: guessing one account's password, or many accounts' from one address.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

export function isThrottled(failures: { account: number; address: number }): boolean {
  return failures.account >= MAX_FAILURES_PER_ACCOUNT || failures.address >= MAX_FAILURES_PER_ADDRESS;
}
