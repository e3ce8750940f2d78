import { randomBytes } from 'node:crypto';
import { AccountProblem } from '../account-problem.ts';
import { hashToken } from '../one-time-token.ts';
import { hashSessionToken } from '../session-token.ts';
import { type IssuedSession, openSession } from '../sessions.ts';
import type { SecurityDeps, SignInClient } from './security-deps.ts';
import type { SessionView } from './security-port.ts';
import { describeUserAgent } from './user-agent.ts';

export interface SignedIn extends IssuedSession {
  /** The browser's device cookie: the one it came with, or a new one. */
  deviceToken: string;
}

const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Every finished sign-in (password, password and second factor, passkey, X) ends here: the
 * session, what the list shows of it, and the new-device mail when this browser is new to the
 * account. The first browser an account ever signs in from is not news to its owner.
 */
export async function openSignedInSession(
  userId: string,
  previousToken: string,
  client: SignInClient,
  deps: SecurityDeps,
): Promise<SignedIn> {
  const session = await openSession(userId, previousToken, deps);
  const now = deps.clock.now();
  await deps.security.describeSession(
    hashSessionToken(session.token),
    { userAgent: client.userAgent.slice(0, 512), clientAddress: client.clientAddress.slice(0, 64) },
    now,
  );
  const deviceToken = DEVICE_TOKEN.test(client.deviceToken)
    ? client.deviceToken
    : randomBytes(32).toString('base64url');
  const seen = await deps.security.rememberDevice(userId, hashToken(deviceToken), now);
  if (seen === 'new') {
    const account = await deps.accounts.loadAccount(userId);
    if (account?.email) {
      await deps.accounts.queueMail({
        kind: 'new_device',
        userId,
        to: account.email,
        lang: account.lang,
        device: {
          ...describeUserAgent(client.userAgent),
          clientAddress: client.clientAddress.slice(0, 64),
          at: now,
          timezone: account.timezone ?? '',
        },
      });
    }
  }
  return { ...session, deviceToken };
}

export function listSessions(
  userId: string,
  sessionToken: string,
  deps: SecurityDeps,
): Promise<SessionView[]> {
  return deps.security.sessions(userId, hashSessionToken(sessionToken), deps.clock.now());
}

/** Ends one of the user's sessions (the current one too: that is signing out). */
export async function endSession(userId: string, sessionId: string, deps: SecurityDeps): Promise<void> {
  const ended = /^[0-9a-f-]{36}$/i.test(sessionId) && (await deps.security.endSession(userId, sessionId));
  if (!ended) throw new AccountProblem('not_found', 'session_not_found');
}

export function endOtherSessions(userId: string, sessionToken: string, deps: SecurityDeps): Promise<number> {
  return deps.security.endOtherSessions(userId, hashSessionToken(sessionToken));
}
