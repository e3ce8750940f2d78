import type { AccountDeps } from './account-deps.ts';
import { AccountProblem, refuseIf } from './account-problem.ts';
import { checkEmail, checkPassword, normaliseEmail } from './credentials.ts';
import { currencyForLang } from './profile-fields.ts';
import { startTrial } from './trial.ts';

/**
 * Creates an unverified account with a trial and no mail, saying whether the address was
 * taken: for operators and tests; the browser's sign-up is `signUp`, which reveals nothing.
 */
export async function createAccount(
  input: { email: string; password: string; lang: string },
  deps: AccountDeps,
): Promise<string> {
  const email = normaliseEmail(input.email);
  refuseIf(checkEmail(email) ?? checkPassword(input.password));
  const now = deps.clock.now();
  const id = deps.newId();
  const outcome = await deps.accounts.insertAccount({
    id,
    email,
    passwordHash: await deps.passwords.hash(input.password),
    name: '',
    lang: input.lang === 'en' ? 'en' : 'ja',
    currency: currencyForLang(input.lang === 'en' ? 'en' : 'ja'),
    timezone: null,
    xSubject: null,
    createdAt: now,
    subscription: startTrial(now),
  });
  if (outcome === 'email_taken') throw new AccountProblem('exists', 'email_taken');
  return id;
}
