import type { AccountDeps } from './account-deps.ts';
import { AccountProblem } from './account-problem.ts';
import { hashToken, looksLikeToken } from './one-time-token.ts';

/** docs/product.md#account: a verification link is valid (verified now), used (already verified) or invalid. */
export async function verifyEmail(
  token: string,
  deps: AccountDeps,
): Promise<'verified' | 'already_verified'> {
  const use = looksLikeToken(token)
    ? await deps.accounts.useVerificationToken(hashToken(token), deps.clock.now())
    : null;
  if (use === null) throw new AccountProblem('not_found', 'verification_link_invalid');
  return use === 'used' ? 'already_verified' : 'verified';
}
