import { createHash, randomBytes } from 'node:crypto';
import { AccountProblem } from './account-problem.ts';
import { currencyForLang } from './profile-fields.ts';
import { afterFirstFactor, type FirstFactorOutcome } from './security/after-password.ts';
import type { SecurityDeps } from './security/security-deps.ts';
import { startTrial } from './trial.ts';

/** X's OAuth 2.0 endpoints (or a stand-in provider's), from configuration. */
export interface XOAuthConfig {
  clientId: string;
  /** Empty for a public client; otherwise sent as HTTP Basic, as X expects of confidential clients. */
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** X answers `{data: {id, name}}`; an OpenID provider answers `{sub, name}`; both are read. */
  userInfoUrl: string;
  scopes: string;
}

export interface XSignInStart {
  authorizeUrl: string;
  state: string;
  codeVerifier: string;
}

/** Authorization code flow with PKCE (S256); state and verifier go back to the gateway's cookie. */
export function startXSignIn(config: XOAuthConfig | null, redirectUri: string): XSignInStart {
  if (!config) throw new AccountProblem('precondition', 'x_sign_in_unavailable');
  const state = randomBytes(24).toString('base64url');
  const codeVerifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri,
    scope: config.scopes,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return { authorizeUrl: url.toString(), state, codeVerifier };
}

async function postForm(config: XOAuthConfig, body: URLSearchParams): Promise<{ access_token?: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (config.clientSecret) {
    const basic = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  const response = await fetch(config.tokenUrl, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new AccountProblem('unauthenticated', 'x_sign_in_failed');
  return (await response.json()) as { access_token?: string };
}

async function fetchXUser(config: XOAuthConfig, accessToken: string): Promise<{ id: string; name: string }> {
  const response = await fetch(config.userInfoUrl, {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new AccountProblem('unauthenticated', 'x_sign_in_failed');
  const body = (await response.json()) as {
    data?: { id?: string; name?: string };
    sub?: string;
    name?: string;
  };
  const id = body.data?.id ?? body.sub;
  if (!id) throw new AccountProblem('unauthenticated', 'x_sign_in_failed');
  return { id: String(id), name: String(body.data?.name ?? body.name ?? '').slice(0, 100) };
}

/**
 * Exchanges the code (with the PKCE verifier) for a token, reads the X user, and signs them in,
 * creating an account with a trial and no password on their first visit.
 */
export async function finishXSignIn(
  config: XOAuthConfig | null,
  input: {
    code: string;
    codeVerifier: string;
    redirectUri: string;
    previousSessionToken: string;
    clientAddress: string;
    userAgent: string;
    deviceToken: string;
  },
  deps: SecurityDeps,
): Promise<FirstFactorOutcome> {
  if (!config) throw new AccountProblem('precondition', 'x_sign_in_unavailable');
  if (!input.code || !input.codeVerifier) throw new AccountProblem('unauthenticated', 'x_sign_in_failed');
  const tokens = await postForm(
    config,
    new URLSearchParams({
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
      client_id: config.clientId,
    }),
  );
  if (!tokens.access_token) throw new AccountProblem('unauthenticated', 'x_sign_in_failed');
  const xUser = await fetchXUser(config, tokens.access_token);
  const subject = `x:${xUser.id}`;
  let user = await deps.accounts.findByXSubject(subject);
  if (!user) {
    const now = deps.clock.now();
    await deps.accounts.insertAccount({
      id: deps.newId(),
      email: null,
      passwordHash: null,
      // X display names may hold anything; the name field keeps only what a name may contain.
      name: xUser.name.replace(/[^\p{L}\p{M}\p{N} .,'\-・ー()&]/gu, '').trim(),
      lang: 'ja',
      currency: currencyForLang('ja'),
      timezone: null,
      xSubject: subject,
      createdAt: now,
      subscription: startTrial(now),
    });
    user = await deps.accounts.findByXSubject(subject);
  }
  if (!user || user.deleted) throw new AccountProblem('unauthenticated', 'x_sign_in_failed');
  return afterFirstFactor(user.id, input.previousSessionToken, input, deps);
}
