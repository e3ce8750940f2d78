import type { AccountDeps } from './account-deps.ts';
import { AccountProblem } from './account-problem.ts';
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

/** The signed-in user of a live session of a live account; every per-user call starts here. */
export async function requireUser(
  sessionToken: string,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): Promise<string> {
  const session = sessionToken
    ? await deps.accounts.findSession(hashSessionToken(sessionToken), deps.clock.now())
    : null;
  if (!session || session.deleted) throw new AccountProblem('unauthenticated', 'unauthenticated');
  return session.userId;
}
