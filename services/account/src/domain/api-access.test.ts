import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccountProblem } from './account-problem.ts';
import {
  type ApiAccessPort,
  type ApiTokenRecord,
  authorizeApiToken,
  createApiToken,
  isApiTokenShaped,
  MAX_API_TOKENS,
} from './api-access.ts';
import { hashToken } from './one-time-token.ts';

/** The storage port as a map: the rules here are the domain's, the SQL has its own tests. */
function memoryPort(): ApiAccessPort & { touched: string[] } {
  const tokens = new Map<string, ApiTokenRecord>();
  const touched: string[] = [];
  return {
    touched,
    listApiTokens: async (userId) => [...tokens.values()].filter((token) => token.userId === userId),
    insertApiToken: async (record, hash, max) => {
      if ([...tokens.values()].filter((token) => token.userId === record.userId).length >= max) return false;
      tokens.set(hash, record);
      return true;
    },
    deleteApiToken: async () => false,
    findApiToken: async (hash, now) => {
      const token = tokens.get(hash);
      return token && token.expiresAt > now ? { ...token, deleted: false } : null;
    },
    touchApiToken: async (id) => void touched.push(id),
    findFeedToken: async () => null,
    replaceFeedToken: async () => {},
    findFeedOwner: async () => null,
  };
}

const at = new Date('2026-12-06T12:00:00Z');
const deps = () => ({ accounts: memoryPort(), clock: { now: () => at }, newId: randomUUID });
const problem = (work: Promise<unknown>) =>
  work.then(
    () => 'made',
    (error: unknown) => (error instanceof AccountProblem ? error.code : String(error)),
  );

describe('API tokens', () => {
  it('makes a token with its expiry, keeps only the hash, and says it once', async () => {
    const d = deps();
    const made = await createApiToken(d, 'u1', {
      name: ' deploy ',
      scopes: ['write', 'read'],
      expiresInDays: 30,
    });
    expect(made.secret).toMatch(/^mmr_[\w-]{43}$/);
    expect(made.token).toMatchObject({ name: 'deploy', scopes: ['read', 'write'], lastUsedAt: null });
    expect(made.token.expiresAt.getTime() - at.getTime()).toBe(30 * 86_400_000);
    expect(await d.accounts.findApiToken(hashToken(made.secret), at)).toMatchObject({ id: made.token.id });
  });

  it.each([
    ['an empty name', { name: '  ', scopes: ['read'], expiresInDays: 1 }, 'api_token_name_invalid'],
    ['a long name', { name: 'x'.repeat(61), scopes: ['read'], expiresInDays: 1 }, 'api_token_name_invalid'],
    [
      'a control character',
      { name: 'a\u0007', scopes: ['read'], expiresInDays: 1 },
      'api_token_name_invalid',
    ],
    ['no scope', { name: 'a', scopes: [], expiresInDays: 1 }, 'api_token_scopes_invalid'],
    [
      'an unknown scope',
      { name: 'a', scopes: ['read', 'admin'], expiresInDays: 1 },
      'api_token_scopes_invalid',
    ],
    ['no expiry', { name: 'a', scopes: ['read'], expiresInDays: 0 }, 'api_token_expiry_invalid'],
    ['over a year', { name: 'a', scopes: ['read'], expiresInDays: 367 }, 'api_token_expiry_invalid'],
    ['part of a day', { name: 'a', scopes: ['read'], expiresInDays: 1.5 }, 'api_token_expiry_invalid'],
  ])('refuses %s', async (_what, input, code) => {
    expect(await problem(createApiToken(deps(), 'u1', input))).toBe(code);
  });

  it('refuses a token past the account’s limit', async () => {
    const d = deps();
    for (let n = 0; n < MAX_API_TOKENS; n++)
      await createApiToken(d, 'u1', { name: `t${n}`, scopes: ['read'], expiresInDays: 1 });
    expect(
      await problem(createApiToken(d, 'u1', { name: 'one more', scopes: ['read'], expiresInDays: 1 })),
    ).toBe('api_token_quota_exceeded');
  });

  it('lets a token through for its scopes only, and notes a use only when let through', async () => {
    const d = deps();
    const reader = await createApiToken(d, 'u1', { name: 'r', scopes: ['read'], expiresInDays: 1 });
    expect((await authorizeApiToken(d, reader.secret, 'read')).userId).toBe('u1');
    expect(d.accounts.touched).toEqual([reader.token.id]);
    expect(await problem(authorizeApiToken(d, reader.secret, 'write'))).toBe('insufficient_scope');
    expect(await problem(authorizeApiToken(d, 'mmr_unknown', 'read'))).toBe('unauthenticated');
    expect(await problem(authorizeApiToken(d, 'a-session-token', 'read'))).toBe('unauthenticated');
    expect(d.accounts.touched).toEqual([reader.token.id]);
  });

  it('tells a token from a session token that happens to begin like one', () => {
    expect(isApiTokenShaped(`mmr_${'a'.repeat(43)}`)).toBe(true);
    // Sessions are 43 base64url characters; some begin with mmr_.
    expect(isApiTokenShaped(`mmr_${'a'.repeat(39)}`)).toBe(false);
  });

  it('refuses a token once its expiry has passed on the service’s clock', async () => {
    const d = deps();
    const made = await createApiToken(d, 'u1', { name: 'r', scopes: ['read'], expiresInDays: 1 });
    const later = { ...d, clock: { now: () => new Date(at.getTime() + 86_400_000) } };
    expect(await problem(authorizeApiToken(later, made.secret, 'read'))).toBe('unauthenticated');
  });
});
