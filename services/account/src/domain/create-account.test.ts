import { describe, expect, it } from 'vitest';
import { type AccountWriter, createAccount, type NewAccount } from './create-account.ts';

function deps(outcome: 'created' | 'email_taken' = 'created') {
  const stored: NewAccount[] = [];
  const accounts: AccountWriter = {
    async insertAccount(account) {
      stored.push(account);
      return outcome;
    },
  };
  return {
    stored,
    deps: {
      accounts,
      hashPassword: async (password: string) => `hashed:${password}`,
      newId: () => 'user-1',
      now: () => new Date('2026-11-23T00:00:00Z'),
    },
  };
}

describe('createAccount', () => {
  it('stores a trimmed e-mail, the hash (never the password) and the language', async () => {
    const { stored, deps: d } = deps();
    const result = await createAccount({ email: ' a@example.com ', password: 'abcd1234', lang: 'en' }, d);
    expect(result).toEqual({ ok: true, userId: 'user-1' });
    expect(stored).toEqual([
      {
        id: 'user-1',
        email: 'a@example.com',
        passwordHash: 'hashed:abcd1234',
        lang: 'en',
        createdAt: new Date('2026-11-23T00:00:00Z'),
      },
    ]);
  });

  it('defaults to Japanese for any language it does not know', async () => {
    const { stored, deps: d } = deps();
    await createAccount({ email: 'a@example.com', password: 'abcd1234', lang: 'fr' }, d);
    expect(stored[0]?.lang).toBe('ja');
  });

  it('refuses bad credentials without storing anything', async () => {
    const { stored, deps: d } = deps();
    expect(await createAccount({ email: 'nope', password: 'abcd1234', lang: 'ja' }, d)).toEqual({
      ok: false,
      problem: 'invalid_email',
    });
    expect(await createAccount({ email: 'a@example.com', password: 'short', lang: 'ja' }, d)).toEqual({
      ok: false,
      problem: 'password_too_short',
    });
    expect(stored).toHaveLength(0);
  });

  it('reports a taken e-mail', async () => {
    const { deps: d } = deps('email_taken');
    expect(await createAccount({ email: 'a@example.com', password: 'abcd1234', lang: 'ja' }, d)).toEqual({
      ok: false,
      problem: 'email_taken',
    });
  });
});
