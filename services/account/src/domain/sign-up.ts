import type { AccountDeps } from './account-deps.ts';
import { AccountProblem, refuseIf } from './account-problem.ts';
import { checkEmail, checkPassword, normaliseEmail } from './credentials.ts';
import { issueToken } from './one-time-token.ts';
import { checkTimezone, currencyForLang } from './profile-fields.ts';
import { isTrialPlan, startTrial, TRIAL_PLAN } from './trial.ts';

export interface SignUpInput {
  email: string;
  password: string;
  lang: string;
  agreedToTerms: boolean;
  timezone: string;
  /** 0 for the default trial plan. */
  plan: number;
}

/**
 * Creates the account with a 14-day trial and mails a verification link. A registered
 * address gets the same answer, and its owner a mail saying someone tried to sign up with it,
 * so the response reveals nothing about which addresses have accounts.
 */
export async function signUp(input: SignUpInput, deps: AccountDeps): Promise<void> {
  const email = normaliseEmail(input.email);
  refuseIf(checkEmail(email) ?? checkPassword(input.password));
  if (!input.agreedToTerms) throw new AccountProblem('invalid', 'terms_not_agreed');
  const timezone = input.timezone === '' ? null : input.timezone;
  if (timezone) refuseIf(checkTimezone(timezone));
  const plan = input.plan === 0 ? TRIAL_PLAN : input.plan;
  if (!isTrialPlan(plan)) throw new AccountProblem('invalid', 'invalid_plan');
  const lang = input.lang === 'en' ? 'en' : 'ja';
  const now = deps.clock.now();
  const id = deps.newId();
  const outcome = await deps.accounts.insertAccount(
    {
      id,
      email,
      passwordHash: await deps.passwords.hash(input.password),
      name: '',
      lang,
      currency: currencyForLang(lang),
      timezone,
      xSubject: null,
      createdAt: now,
      subscription: startTrial(now, plan),
    },
    {
      kind: 'verify_email',
      userId: id,
      to: email,
      lang,
      token: issueToken('verify_email', now),
      tokenSubject: email,
    },
  );
  if (outcome === 'created') return;
  const owner = await deps.accounts.findByEmail(email);
  if (owner?.email) {
    await deps.accounts.queueMail({
      kind: 'email_taken',
      userId: owner.id,
      to: owner.email,
      lang: owner.lang,
    });
  }
}
