import type { AccountDeps } from './account-deps.ts';
import { AccountProblem, refuseIf } from './account-problem.ts';
import { checkPassword, normaliseEmail } from './credentials.ts';
import { hashToken, issueToken, looksLikeToken } from './one-time-token.ts';
import { hashSessionToken } from './session-token.ts';

/** Mails a reset link when the address has an account; the caller answers the same either way. */
export async function requestPasswordReset(email: string, deps: AccountDeps): Promise<void> {
  const address = normaliseEmail(email);
  const user = address.length <= 254 ? await deps.accounts.findByEmail(address) : null;
  if (!user?.email || user.deleted) return;
  await deps.accounts.queueMail({
    kind: 'reset_password',
    userId: user.id,
    to: user.email,
    lang: user.lang,
    token: issueToken('reset_password', deps.clock.now()),
    tokenSubject: user.email,
  });
}

export async function resetPassword(token: string, password: string, deps: AccountDeps): Promise<void> {
  refuseIf(checkPassword(password));
  const done =
    looksLikeToken(token) &&
    (await deps.accounts.resetPassword(
      hashToken(token),
      await deps.passwords.hash(password),
      deps.clock.now(),
    ));
  if (!done) throw new AccountProblem('not_found', 'reset_link_invalid');
}

/**
 * docs/product.md#account: a wrong current password is refused, the same password is 'No changes'.
 * A user who signed in with X and has no password sets one without a current password.
 */
export async function changePassword(
  input: { userId: string; sessionToken: string; currentPassword: string; newPassword: string },
  deps: AccountDeps,
): Promise<void> {
  const currentHash = await deps.accounts.passwordHashOf(input.userId);
  if (currentHash && !(await deps.passwords.verify(currentHash, input.currentPassword.slice(0, 256)))) {
    throw new AccountProblem('invalid', 'current_password_mismatch');
  }
  if (currentHash && input.newPassword === input.currentPassword) {
    throw new AccountProblem('invalid', 'no_changes');
  }
  refuseIf(checkPassword(input.newPassword));
  await deps.accounts.setPassword(
    input.userId,
    await deps.passwords.hash(input.newPassword),
    hashSessionToken(input.sessionToken),
  );
}
