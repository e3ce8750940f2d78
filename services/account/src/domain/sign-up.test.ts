import { describe, expect, it } from 'vitest';
import type { AccountDeps } from './account-deps.ts';
import type { AccountMail } from './account-mail.ts';
import type { AccountPort } from './account-port.ts';
import { signUp } from './sign-up.ts';

const REGISTERED = 'taken@example.com';

/** A store holding one registered address, counting what a sign-up asks of it. */
function recordingDeps() {
  const work = { hashes: 0, mails: [] as AccountMail['kind'][] };
  const accounts = {
    async insertAccount(account, mail) {
      if (account.email === REGISTERED) return 'email_taken';
      if (mail) work.mails.push(mail.kind);
      return 'created';
    },
    async findByEmail(email) {
      return email === REGISTERED
        ? { id: 'owner', email, lang: 'en', passwordHash: 'x', emailVerified: true, deleted: false }
        : null;
    },
    async queueMail(mail) {
      work.mails.push(mail.kind);
    },
  } as Partial<AccountPort> as AccountPort;
  const deps: AccountDeps = {
    accounts,
    clock: { now: () => new Date('2026-01-05T00:00:00Z') },
    passwords: {
      hash: async (password) => {
        work.hashes++;
        return `hashed:${password}`;
      },
      verify: async () => false,
    },
    newId: () => 'new-user',
  };
  return { deps, work };
}

const input = (email: string) => ({
  email,
  password: 'abcd1234',
  lang: 'en',
  agreedToTerms: true,
  timezone: '',
  plan: 0,
});

describe('sign-up does the same work whether or not the address has an account', () => {
  it('hashes the password once and sends one mail on both paths', async () => {
    const fresh = recordingDeps();
    await signUp(input('new@example.com'), fresh.deps);
    const taken = recordingDeps();
    await signUp(input(REGISTERED), taken.deps);

    expect(fresh.work.hashes).toBe(1);
    expect(taken.work.hashes).toBe(fresh.work.hashes);
    expect(fresh.work.mails).toEqual(['verify_email']);
    expect(taken.work.mails).toEqual(['email_taken']);
  });
});
