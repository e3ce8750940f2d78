import { randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { AccountProblem } from '../account-problem.ts';
import { hashToken } from '../one-time-token.ts';
import type { SecurityDeps } from './security-deps.ts';
import type { PasskeyRecord } from './security-port.ts';
import { pendingUser } from './totp-actions.ts';

/** The relying party as the gateway's public origin names it. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** A passkey ceremony's challenge is good for this long (WebAuthn's own timeout is a minute). */
const CHALLENGE_MS = 5 * 60_000;
/** Passkeys per account: enough for every device a person owns, few enough to list. */
export const MAX_PASSKEYS = 20;

const parseJson = <T>(json: string): T => {
  try {
    return JSON.parse(json) as T;
  } catch {
    throw new AccountProblem('invalid', 'passkey_refused');
  }
};

function requireRelyingParty(rp: RelyingParty | undefined): RelyingParty {
  if (!rp?.id || !rp.origin) throw new AccountProblem('precondition', 'passkeys_off');
  return rp;
}

async function saveChallenge(
  deps: SecurityDeps,
  purpose: 'passkey_register' | 'passkey_sign_in',
  userId: string | null,
  challenge: string,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await deps.security.createPending(hashToken(token), {
    userId,
    purpose,
    challenge,
    expiresAt: new Date(deps.clock.now().getTime() + CHALLENGE_MS),
  });
  return token;
}

/** Options for the browser's navigator.credentials.create; the challenge is kept under the user. */
export async function startPasskeyRegistration(
  userId: string,
  rp: RelyingParty | undefined,
  deps: SecurityDeps,
): Promise<{ optionsJson: string; challengeToken: string }> {
  const party = requireRelyingParty(rp);
  const account = await deps.accounts.loadAccount(userId);
  if (!account || account.deleted) throw new AccountProblem('unauthenticated', 'unauthenticated');
  const existing = await deps.security.passkeys(userId);
  if (existing.length >= MAX_PASSKEYS) throw new AccountProblem('invalid', 'passkey_quota_exceeded');
  const options = await generateRegistrationOptions({
    rpName: 'Mimamori',
    rpID: party.id,
    userName: account.email ?? account.name ?? userId,
    userID: new TextEncoder().encode(userId),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      transports: p.transports as AuthenticatorTransportFuture[],
    })),
    // A discoverable credential, so the same passkey signs in without a password as well.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const challengeToken = await saveChallenge(deps, 'passkey_register', userId, options.challenge);
  return { optionsJson: JSON.stringify(options), challengeToken };
}

/** Stores the passkey the browser made for the challenge the user was given. */
export async function finishPasskeyRegistration(
  userId: string,
  input: { rp: RelyingParty | undefined; challengeToken: string; responseJson: string; name: string },
  deps: SecurityDeps,
): Promise<PasskeyRecord> {
  const party = requireRelyingParty(input.rp);
  const name = input.name.trim();
  if ([...name].length > 60) throw new AccountProblem('invalid', 'passkey_name_invalid');
  const tokenHash = hashToken(input.challengeToken);
  const pending = input.challengeToken
    ? await deps.security.pending(tokenHash, 'passkey_register', deps.clock.now())
    : null;
  if (!pending || pending.userId !== userId) throw new AccountProblem('invalid', 'passkey_refused');
  await deps.security.deletePending(tokenHash);
  const verification = await verifyRegistrationResponse({
    response: parseJson<RegistrationResponseJSON>(input.responseJson),
    expectedChallenge: pending.challenge,
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) throw new AccountProblem('invalid', 'passkey_refused');
  const { credential } = verification.registrationInfo;
  if (await deps.security.passkeyByCredential(credential.id))
    throw new AccountProblem('exists', 'passkey_exists');
  const passkey: PasskeyRecord = {
    id: deps.newId(),
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: name || 'Passkey',
    createdAt: deps.clock.now(),
    lastUsedAt: null,
  };
  await deps.security.addPasskey(userId, passkey);
  return passkey;
}

export async function removePasskey(userId: string, passkeyId: string, deps: SecurityDeps): Promise<void> {
  const removed =
    /^[0-9a-f-]{36}$/i.test(passkeyId) && (await deps.security.removePasskey(userId, passkeyId));
  if (!removed) throw new AccountProblem('not_found', 'passkey_not_found');
}

/**
 * Options for navigator.credentials.get. After a password (a ticket) only the account's own
 * passkeys are offered; without one the browser offers any discoverable passkey for this site.
 */
export async function startPasskeySignIn(
  input: { rp: RelyingParty | undefined; ticket: string },
  deps: SecurityDeps,
): Promise<{ optionsJson: string; challengeToken: string }> {
  const party = requireRelyingParty(input.rp);
  const userId = input.ticket ? await pendingUser(input.ticket, deps) : null;
  const allow = userId ? await deps.security.passkeys(userId) : [];
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    allowCredentials: allow.map((p) => ({
      id: p.credentialId,
      transports: p.transports as AuthenticatorTransportFuture[],
    })),
    // A passkey on its own stands for both factors, so it must have verified the person.
    userVerification: userId ? 'preferred' : 'required',
  });
  const challengeToken = await saveChallenge(deps, 'passkey_sign_in', userId, options.challenge);
  return { optionsJson: JSON.stringify(options), challengeToken };
}

/** The user a passkey assertion signs in, after checking it against its challenge and stored key. */
export async function finishPasskeySignIn(
  input: { rp: RelyingParty | undefined; challengeToken: string; responseJson: string; ticket: string },
  deps: SecurityDeps,
): Promise<string> {
  const party = requireRelyingParty(input.rp);
  const tokenHash = hashToken(input.challengeToken);
  const pending = input.challengeToken
    ? await deps.security.pending(tokenHash, 'passkey_sign_in', deps.clock.now())
    : null;
  if (!pending) throw new AccountProblem('unauthenticated', 'sign_in_expired');
  // One answer per challenge, right or wrong.
  await deps.security.deletePending(tokenHash);
  const response = parseJson<AuthenticationResponseJSON>(input.responseJson);
  const passkey =
    typeof response?.id === 'string' ? await deps.security.passkeyByCredential(response.id) : null;
  // A passkey after a password must be that account's own.
  if (!passkey || (pending.userId !== null && passkey.userId !== pending.userId)) {
    throw new AccountProblem('invalid', 'passkey_refused');
  }
  const passwordless = pending.userId === null;
  if (!passwordless && (await pendingUser(input.ticket, deps)) !== pending.userId) {
    throw new AccountProblem('unauthenticated', 'sign_in_expired');
  }
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: pending.challenge,
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(passkey.publicKey),
      counter: passkey.counter,
      transports: passkey.transports as AuthenticatorTransportFuture[],
    },
    requireUserVerification: passwordless,
  }).catch(() => null);
  if (!verification?.verified) throw new AccountProblem('invalid', 'passkey_refused');
  await deps.security.usePasskey(passkey.id, verification.authenticationInfo.newCounter, deps.clock.now());
  if (!passwordless) {
    // The password's ticket is spent by the passkey that completed it.
    await deps.security.deletePending(hashToken(input.ticket));
  }
  const account = await deps.accounts.loadAccount(passkey.userId);
  if (!account || account.deleted) throw new AccountProblem('unauthenticated', 'passkey_refused');
  return passkey.userId;
}
