import { type CredentialProblem, checkEmail, checkPassword } from './credentials.ts';

export interface NewAccount {
  id: string;
  email: string;
  passwordHash: string;
  lang: 'ja' | 'en';
  createdAt: Date;
}

export interface AccountWriter {
  /** Stores the account and its AccountCreated event in one transaction. */
  insertAccount(account: NewAccount): Promise<'created' | 'email_taken'>;
}

export type CreateAccountResult =
  | { ok: true; userId: string }
  | { ok: false; problem: CredentialProblem | 'email_taken' };

export interface CreateAccountDeps {
  accounts: AccountWriter;
  hashPassword(password: string): Promise<string>;
  newId(): string;
  now(): Date;
}

export async function createAccount(
  input: { email: string; password: string; lang: string },
  deps: CreateAccountDeps,
): Promise<CreateAccountResult> {
  const email = input.email.trim();
  const problem = checkEmail(email) ?? checkPassword(input.password);
  if (problem) return { ok: false, problem };
  const account: NewAccount = {
    id: deps.newId(),
    email,
    passwordHash: await deps.hashPassword(input.password),
    lang: input.lang === 'en' ? 'en' : 'ja',
    createdAt: deps.now(),
  };
  const outcome = await deps.accounts.insertAccount(account);
  return outcome === 'created' ? { ok: true, userId: account.id } : { ok: false, problem: 'email_taken' };
}
