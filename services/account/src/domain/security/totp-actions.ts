import { randomBytes } from 'node:crypto';
import { AccountProblem } from '../account-problem.ts';
import { hashToken } from '../one-time-token.ts';
import { isThrottled, SIGN_IN_WINDOW_MS } from '../sign-in-throttle.ts';
import type { SecurityDeps } from './security-deps.ts';
import { newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, totpEnrolment, totpStep } from './totp.ts';

/** A password accepted for an account with a second factor waits this long for it. */
export const PENDING_SIGN_IN_MS = 10 * 60_000;
/** Wrong codes one pending sign-in takes before it ends and the password is asked again. */
export const MAX_PENDING_FAILURES = 5;

export type SecondFactorMethod = 'totp' | 'passkey';

export interface SecuritySummary {
  totpEnabled: boolean;
  recoveryCodesLeft: number;
}

export async function securitySummary(userId: string, deps: SecurityDeps): Promise<SecuritySummary> {
  const totp = await deps.security.totp(userId);
  const enabled = totp?.confirmed ?? false;
  return {
    totpEnabled: enabled,
    recoveryCodesLeft: enabled ? await deps.security.recoveryCodesLeft(userId) : 0,
  };
}

/** The second factors the user must pass one of after the password; empty when none is set. */
export async function secondFactors(userId: string, deps: SecurityDeps): Promise<SecondFactorMethod[]> {
  const methods: SecondFactorMethod[] = [];
  if ((await deps.security.totp(userId))?.confirmed) methods.push('totp');
  if ((await deps.security.passkeys(userId)).length > 0) methods.push('passkey');
  return methods;
}

/**
 * Code attempts share the sign-in throttle's table and limits under their own key, so a stolen
 * password buys no faster guessing of codes than of passwords, from any number of tickets.
 */
async function throttled<T>(
  userId: string,
  clientAddress: string,
  deps: SecurityDeps,
  work: () => Promise<T | null>,
): Promise<T | null> {
  const now = deps.clock.now();
  const attemptId = await deps.accounts.beginSignInAttempt(
    {
      accountKey: `second-factor:${userId}`,
      clientAddress,
      at: now,
      since: new Date(now.getTime() - SIGN_IN_WINDOW_MS),
    },
    isThrottled,
  );
  if (attemptId === null) throw new AccountProblem('throttled', 'too_many_attempts');
  const result = await work();
  if (result !== null) await deps.accounts.clearSignInAttempt(attemptId);
  return result;
}

/** Starts (or restarts) setting up TOTP: a new secret, shown once as text and as a QR code. */
export async function startTotp(userId: string, deps: SecurityDeps) {
  const account = await deps.accounts.loadAccount(userId);
  if (!account || account.deleted) throw new AccountProblem('unauthenticated', 'unauthenticated');
  const secret = newTotpSecret();
  const started = await deps.security.startTotp(userId, deps.sealTotp(secret, userId), deps.clock.now());
  if (!started) throw new AccountProblem('exists', 'totp_already_enabled');
  return { secret, ...totpEnrolment(secret, account.email ?? account.name ?? userId) };
}

/** The step of a correct, unused TOTP code of the user's factor, or null. */
async function acceptTotp(
  userId: string,
  code: string,
  deps: SecurityDeps,
  which: 'confirmed' | 'unconfirmed',
): Promise<number | null> {
  const factor = await deps.security.totp(userId);
  if (!factor || factor.confirmed !== (which === 'confirmed')) return null;
  const step = totpStep(deps.openTotp(factor.sealedSecret, userId), code, deps.clock.now());
  if (step === null || step <= factor.lastStep) return null;
  return (await deps.security.useTotpStep(userId, step)) ? step : null;
}

/** Turns TOTP on with a first correct code; answers the recovery codes, shown this once. */
export async function confirmTotp(
  userId: string,
  code: string,
  clientAddress: string,
  deps: SecurityDeps,
): Promise<string[]> {
  const factor = await deps.security.totp(userId);
  if (!factor) throw new AccountProblem('precondition', 'totp_not_started');
  if (factor.confirmed) throw new AccountProblem('exists', 'totp_already_enabled');
  const step = await throttled(userId, clientAddress, deps, () =>
    acceptTotp(userId, code, deps, 'unconfirmed'),
  );
  if (step === null) throw new AccountProblem('invalid', 'code_mismatch');
  const codes = newRecoveryCodes();
  await deps.security.confirmTotp(
    userId,
    step,
    codes.map((c) => hashToken(normaliseRecoveryCode(c))),
    deps.clock.now(),
  );
  return codes;
}

/** A TOTP code or an unused recovery code (used up by this) of the user; false when neither. */
async function acceptCodeOrRecovery(
  userId: string,
  input: { code: string; recoveryCode: string },
  deps: SecurityDeps,
): Promise<boolean> {
  if (input.code && (await acceptTotp(userId, input.code, deps, 'confirmed')) !== null) return true;
  const recovery = normaliseRecoveryCode(input.recoveryCode);
  if (!recovery) return false;
  if (!(await deps.security.totp(userId))?.confirmed) return false;
  return deps.security.useRecoveryCode(userId, hashToken(recovery), deps.clock.now());
}

/** Turns TOTP off: the password and a current code (or a recovery code) both. */
export async function disableTotp(
  userId: string,
  input: { password: string; code: string; recoveryCode: string; clientAddress: string },
  deps: SecurityDeps,
): Promise<void> {
  if (!(await deps.security.totp(userId))?.confirmed)
    throw new AccountProblem('precondition', 'totp_not_enabled');
  const passed = await throttled(userId, input.clientAddress, deps, async () => {
    const hash = await deps.accounts.passwordHashOf(userId);
    const passwordOk = hash ? await deps.passwords.verify(hash, input.password.slice(0, 256)) : true;
    if (!passwordOk) return null;
    return (await acceptCodeOrRecovery(userId, input, deps)) ? true : null;
  });
  if (!passed) throw new AccountProblem('invalid', 'password_or_code_mismatch');
  await deps.security.removeTotp(userId);
}

/** New recovery codes in place of all the old ones, for a current TOTP code. */
export async function regenerateRecoveryCodes(
  userId: string,
  input: { code: string; clientAddress: string },
  deps: SecurityDeps,
): Promise<string[]> {
  if (!(await deps.security.totp(userId))?.confirmed)
    throw new AccountProblem('precondition', 'totp_not_enabled');
  const step = await throttled(userId, input.clientAddress, deps, () =>
    acceptTotp(userId, input.code, deps, 'confirmed'),
  );
  if (step === null) throw new AccountProblem('invalid', 'code_mismatch');
  const codes = newRecoveryCodes();
  await deps.security.replaceRecoveryCodes(
    userId,
    codes.map((c) => hashToken(normaliseRecoveryCode(c))),
  );
  return codes;
}

/** A password accepted, a second factor to come: the ticket the browser holds until then. */
export async function openPendingSignIn(userId: string, deps: SecurityDeps): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await deps.security.createPending(hashToken(ticket), {
    userId,
    purpose: 'second_factor',
    challenge: '',
    expiresAt: new Date(deps.clock.now().getTime() + PENDING_SIGN_IN_MS),
  });
  return ticket;
}

/** The user a live pending sign-in names, refused when there is none (expired, used, or unknown). */
export async function pendingUser(ticket: string, deps: SecurityDeps): Promise<string> {
  const pending = ticket
    ? await deps.security.pending(hashToken(ticket), 'second_factor', deps.clock.now())
    : null;
  if (!pending?.userId) throw new AccountProblem('unauthenticated', 'sign_in_expired');
  return pending.userId;
}

/** Checks the second step's code; the ticket is spent on success and ends after too many misses. */
export async function passSecondFactor(
  ticket: string,
  input: { code: string; recoveryCode: string; clientAddress: string },
  deps: SecurityDeps,
): Promise<string> {
  const userId = await pendingUser(ticket, deps);
  const passed = await throttled(userId, input.clientAddress, deps, async () =>
    (await acceptCodeOrRecovery(userId, input, deps)) ? true : null,
  );
  const ticketHash = hashToken(ticket);
  if (!passed) {
    if ((await deps.security.failPending(ticketHash)) >= MAX_PENDING_FAILURES) {
      await deps.security.deletePending(ticketHash);
      throw new AccountProblem('unauthenticated', 'sign_in_expired');
    }
    throw new AccountProblem('invalid', 'code_mismatch');
  }
  await deps.security.deletePending(ticketHash);
  return userId;
}
