import type { AccountDeps } from './account-deps.ts';
import type { SessionUser } from './account-port.ts';
import { AccountProblem } from './account-problem.ts';
import { isApiTokenShaped } from './api-access.ts';
import { hashToken } from './one-time-token.ts';
import { hashSessionToken, newSessionToken, SESSION_LIFETIME_MS } from './session-token.ts';
import type { WorkspaceRole } from './workspace-role.ts';

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
 * The workspace a session token works in (`userId`: the id every service stores), its person and
 * role, or a live API token standing in for a session: the gateway has checked the token's scope
 * for the request (AuthorizeApiToken) before it passes the token on. A token belongs to its
 * workspace and acts with the owner's authority within its scope, which is why only owners make
 * tokens (ADR 0033). `deleted` when the workspace ended but the session remains.
 */
export async function findSessionUser(
  sessionToken: string,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): Promise<SessionUser | null> {
  if (!sessionToken) return null;
  const now = deps.clock.now();
  if (isApiTokenShaped(sessionToken)) {
    const token = await deps.accounts.findApiToken(hashToken(sessionToken), now);
    return token
      ? { userId: token.userId, personId: token.userId, role: 'owner', deleted: token.deleted }
      : null;
  }
  return deps.accounts.findSession(hashSessionToken(sessionToken), now);
}

/** The signed-in caller of a live session of a live workspace they belong to. */
export async function requireCaller(
  sessionToken: string,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): Promise<SessionUser & { role: WorkspaceRole }> {
  const session = await findSessionUser(sessionToken, deps);
  if (!session || session.deleted || !session.role) {
    throw new AccountProblem('unauthenticated', 'unauthenticated');
  }
  return { ...session, role: session.role };
}

/** The workspace of a live session of a live account; every per-workspace call starts here. */
export async function requireUser(
  sessionToken: string,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): Promise<string> {
  return (await requireCaller(sessionToken, deps)).userId;
}

/**
 * The signed-in person (not the workspace): their own password and sign-in address change only
 * their own sign-in, whichever workspace they work in.
 */
export async function requirePerson(
  sessionToken: string,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): Promise<string> {
  return (await requireCaller(sessionToken, deps)).personId;
}
