import { randomBytes } from 'node:crypto';
import type { AccountDeps } from './account-deps.ts';
import { AccountProblem } from './account-problem.ts';
import { normaliseEmail } from './credentials.ts';
import { afterFirstFactor, type FirstFactorOutcome } from './security/after-password.ts';
import type { SecurityDeps } from './security/security-deps.ts';
import { isThrottled, SIGN_IN_WINDOW_MS } from './sign-in-throttle.ts';

// Verified against when the address is unknown, so an unknown address takes as long as a
// wrong password and timing tells nothing.
let decoyHash: Promise<string> | undefined;
const decoy = (deps: AccountDeps) => {
  decoyHash ??= deps.passwords.hash(randomBytes(16).toString('hex'));
  return decoyHash;
};

export interface SignInInput {
  email: string;
  password: string;
  clientAddress: string;
  previousSessionToken: string;
  userAgent: string;
  deviceToken: string;
}

export async function signIn(input: SignInInput, deps: SecurityDeps): Promise<FirstFactorOutcome> {
  const email = normaliseEmail(input.email);
  const accountKey = email.toLowerCase().slice(0, 254);
  const now = deps.clock.now();
  // Recorded as a failure before the password is checked, and cleared on success, so
  // attempts in flight count too.
  const attemptId = await deps.accounts.beginSignInAttempt(
    {
      accountKey,
      clientAddress: input.clientAddress,
      at: now,
      since: new Date(now.getTime() - SIGN_IN_WINDOW_MS),
    },
    isThrottled,
  );
  if (attemptId === null) throw new AccountProblem('throttled', 'too_many_attempts');

  const user = email ? await deps.accounts.findByEmail(email) : null;
  const password = input.password.slice(0, 256);
  const matches =
    user?.passwordHash && !user.deleted
      ? await deps.passwords.verify(user.passwordHash, password)
      : (await deps.passwords.verify(await decoy(deps), password)) && false;
  if (!user || !matches) throw new AccountProblem('unauthenticated', 'credentials_mismatch');
  await deps.accounts.clearSignInAttempt(attemptId);
  // Only someone who knows the password learns this, so it reveals no account.
  if (!user.emailVerified) throw new AccountProblem('precondition', 'email_not_verified');
  return afterFirstFactor(user.id, input.previousSessionToken, input, deps);
}
