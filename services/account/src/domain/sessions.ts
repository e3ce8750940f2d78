import type { AccountDeps } from './account-deps.ts';
import { AccountProblem } from './account-problem.ts';
import { isApiTokenShaped } from './api-access.ts';
import { hashToken } from './one-time-token.ts';
import { hashSessionToken, newSessionToken, SESSION_LIFETIME_MS } from './session-token.ts';

export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

/** A new session for the user; the browser's previous one (if any) ends, so tokens rotate on sign-in. */
export async function openSession(
  userId: string,
  previousToken: string,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): Promise<IssuedSession> {
  const now = deps.clock.now();
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await deps.accounts.createSession(
    { userId, tokenHash: hashSessionToken(token), createdAt: now, expiresAt },
    previousToken ? hashSessionToken(previousToken) : null,
  );
  return { token, expiresAt };
}

/**
 * The user a session token names, or a live API token standing in for one: the gateway has
 * checked the token's scope for the request (AuthorizeApiToken) before it passes the token on.
 * `deleted` when the account ended but the session remains.
 */
export async function findSessionUser(
  sessionToken: string,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): Promise<{ userId: string; deleted: boolean } | null> {
  if (!sessionToken) return null;
  const now = deps.clock.now();
  if (isApiTokenShaped(sessionToken)) return deps.accounts.findApiToken(hashToken(sessionToken), now);
  return deps.accounts.findSession(hashSessionToken(sessionToken), now);
}

/** The signed-in user of a live session of a live account; every per-user call starts here. */
export async function requireUser(
  sessionToken: string,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): Promise<string> {
  const session = await findSessionUser(sessionToken, deps);
  if (!session || session.deleted) throw new AccountProblem('unauthenticated', 'unauthenticated');
  return session.userId;
}
