import type { SecurityDeps, SignInClient } from './security-deps.ts';
import { openSignedInSession, type SignedIn } from './signed-in.ts';
import { openPendingSignIn, type SecondFactorMethod, secondFactors } from './totp-actions.ts';

export type FirstFactorOutcome =
  | ({ kind: 'signed_in' } & SignedIn)
  | { kind: 'second_factor'; ticket: string; methods: SecondFactorMethod[] };

/**
 * After a password (or X) was accepted: a session at once, or, for an account with a second
 * factor, a ticket the second step must bring back with a code or a passkey.
 */
export async function afterFirstFactor(
  userId: string,
  previousToken: string,
  client: SignInClient,
  deps: SecurityDeps,
): Promise<FirstFactorOutcome> {
  const methods = await secondFactors(userId, deps);
  if (methods.length > 0)
    return { kind: 'second_factor', ticket: await openPendingSignIn(userId, deps), methods };
  return { kind: 'signed_in', ...(await openSignedInSession(userId, previousToken, client, deps)) };
}
