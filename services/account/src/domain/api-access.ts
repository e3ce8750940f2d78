import { randomBytes } from 'node:crypto';
import { AccountProblem } from './account-problem.ts';
import type { Clock } from './clock.ts';
import { hashToken } from './one-time-token.ts';

// Reaching the account without a browser (docs/api.md, docs/product.md#api-access): personal
// access tokens for the API, and one secret feed token for the account's Atom and RSS feeds.

export type ApiScope = 'read' | 'write';
export const API_SCOPES: readonly ApiScope[] = ['read', 'write'];

/** The expiries the account screen offers; the API takes any whole number of days in the range. */
export const API_TOKEN_MAX_DAYS = 366;
/** docs/product.md#api-access: at most this many live tokens per account. */
export const MAX_API_TOKENS = 20;
const MAX_NAME_LENGTH = 60;

/**
 * A token's secret is this prefix and 43 characters (32 random bytes), so it is told from a
 * session token (43 characters, any of which may spell the prefix) wherever one is accepted, and
 * secret scanners can recognise a leaked one.
 */
export const API_TOKEN_PREFIX = 'mmr_';
const API_TOKEN_LENGTH = API_TOKEN_PREFIX.length + 43;

export interface ApiTokenRecord {
  id: string;
  userId: string;
  name: string;
  scopes: ApiScope[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
}

export interface ApiAccessPort {
  listApiTokens(userId: string): Promise<ApiTokenRecord[]>;
  /** False when the account already has `max` live tokens (counted in the same transaction). */
  insertApiToken(record: ApiTokenRecord, tokenHash: string, max: number): Promise<boolean>;
  /** False when the token is not the user's (or gone). */
  deleteApiToken(userId: string, id: string): Promise<boolean>;
  /** The live (unexpired) token by its hash, with whether its account ended. */
  findApiToken(tokenHash: string, now: Date): Promise<(ApiTokenRecord & { deleted: boolean }) | null>;
  /** Notes the use; a use within the last minute is not written again. */
  touchApiToken(id: string, at: Date): Promise<void>;
  /** The account's feed token (kept sealed, to show it again); null before the first is made. */
  findFeedToken(userId: string): Promise<string | null>;
  /** Puts `token` in place of the account's feed token (if any); the old one stops at once. */
  replaceFeedToken(userId: string, token: string, at: Date): Promise<void>;
  /** Whose feed token this is; null for an unknown or replaced one, or an ended account. */
  findFeedOwner(tokenHash: string): Promise<string | null>;
}

export interface ApiAccessDeps {
  accounts: ApiAccessPort;
  clock: Clock;
  newId(): string;
}

export function isApiTokenShaped(token: string): boolean {
  return token.length === API_TOKEN_LENGTH && token.startsWith(API_TOKEN_PREFIX);
}

export async function createApiToken(
  deps: ApiAccessDeps,
  userId: string,
  input: { name: string; scopes: readonly string[]; expiresInDays: number },
): Promise<{ token: ApiTokenRecord; secret: string }> {
  const name = input.name.trim();
  // Control characters would break the list's layout and the curl examples people paste.
  if (!name || name.length > MAX_NAME_LENGTH || /\p{Cc}/u.test(name)) {
    throw new AccountProblem('invalid', 'api_token_name_invalid');
  }
  const scopes = API_SCOPES.filter((scope) => input.scopes.includes(scope));
  if (scopes.length === 0 || scopes.length !== new Set(input.scopes).size) {
    throw new AccountProblem('invalid', 'api_token_scopes_invalid');
  }
  const days = input.expiresInDays;
  if (!Number.isInteger(days) || days < 1 || days > API_TOKEN_MAX_DAYS) {
    throw new AccountProblem('invalid', 'api_token_expiry_invalid');
  }
  const now = deps.clock.now();
  const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const token: ApiTokenRecord = {
    id: deps.newId(),
    userId,
    name,
    scopes,
    createdAt: now,
    expiresAt: new Date(now.getTime() + days * 86_400_000),
    lastUsedAt: null,
  };
  if (!(await deps.accounts.insertApiToken(token, hashToken(secret), MAX_API_TOKENS))) {
    throw new AccountProblem('invalid', 'api_token_quota_exceeded');
  }
  return { token, secret };
}

export async function revokeApiToken(deps: ApiAccessDeps, userId: string, id: string): Promise<void> {
  if (!(await deps.accounts.deleteApiToken(userId, id)))
    throw new AccountProblem('not_found', 'api_token_not_found');
}

/** The live token's user when it has `scope`; a use is noted only once it is let through. */
export async function authorizeApiToken(
  deps: ApiAccessDeps,
  secret: string,
  scope: string,
): Promise<ApiTokenRecord> {
  const token = isApiTokenShaped(secret)
    ? await deps.accounts.findApiToken(hashToken(secret), deps.clock.now())
    : null;
  if (!token || token.deleted) throw new AccountProblem('unauthenticated', 'unauthenticated');
  if (!token.scopes.includes(scope as ApiScope)) throw new AccountProblem('forbidden', 'insufficient_scope');
  await deps.accounts.touchApiToken(token.id, deps.clock.now());
  return token;
}

/** The account's feed token, made on first ask. */
export async function feedToken(deps: ApiAccessDeps, userId: string): Promise<string> {
  return (await deps.accounts.findFeedToken(userId)) ?? rotateFeedToken(deps, userId);
}

export async function rotateFeedToken(deps: ApiAccessDeps, userId: string): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await deps.accounts.replaceFeedToken(userId, token, deps.clock.now());
  return token;
}

export async function feedOwner(deps: ApiAccessDeps, token: string): Promise<string> {
  const userId = token ? await deps.accounts.findFeedOwner(hashToken(token)) : null;
  if (!userId) throw new AccountProblem('not_found', 'feed_not_found');
  return userId;
}
