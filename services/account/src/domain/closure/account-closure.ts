import type { AccountDeps } from '../account-deps.ts';
import { AccountProblem } from '../account-problem.ts';
import { loadOwnAccount } from '../account-settings.ts';

/** How long a deleted account's data is kept before it is erased: the grace period the mail states. */
export const PURGE_GRACE_DAYS = 30;

/**
 * What the user types to confirm, in either language whatever the screen's: the word the screen
 * asks for. Compared after NFKC, trimmed and case-folded, so a full-width or capitalised word counts.
 */
const CONFIRMATION_WORDS = new Set(['削除', 'delete']);

export function isConfirmation(typed: string): boolean {
  return CONFIRMATION_WORDS.has(typed.normalize('NFKC').trim().toLowerCase());
}

/** Where closing and purging accounts is recorded (store/closure-store.ts). */
export interface ClosurePort {
  /**
   * Marks the account deleted now (it can no longer sign in, its sites stop and go, billing ends),
   * sets its purge date and queues the mail that states it; one transaction.
   */
  close(userId: string, now: Date, purgeAt: Date): Promise<void>;
  /**
   * Erases accounts whose purge date has passed, each in one transaction that publishes
   * AccountPurged for the other services; answers the user ids purged.
   */
  purgeDue(now: Date): Promise<string[]>;
}

/**
 * The user deletes their own account: the password again (an account that signs in with X only has
 * none) and the confirmation word typed. Everything is erased after the grace period; until then the
 * account is closed and a reply to the mail reaches support.
 */
export async function deleteOwnAccount(
  userId: string,
  input: { password: string; confirmation: string },
  deps: Pick<AccountDeps, 'accounts' | 'clock' | 'passwords'> & {
    closure: ClosurePort;
    purgeGraceMs: number;
  },
): Promise<{ purgeAt: Date }> {
  await loadOwnAccount(userId, deps);
  const hash = await deps.accounts.passwordHashOf(userId);
  if (hash && !(await deps.passwords.verify(hash, input.password.slice(0, 256))))
    throw new AccountProblem('invalid', 'current_password_mismatch');
  if (!isConfirmation(input.confirmation)) throw new AccountProblem('invalid', 'confirmation_mismatch');
  const now = deps.clock.now();
  const purgeAt = new Date(now.getTime() + deps.purgeGraceMs);
  await deps.closure.close(userId, now, purgeAt);
  return { purgeAt };
}
