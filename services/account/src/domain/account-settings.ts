import { planQuota } from '@mimamori/plans';
import type { AccountDeps } from './account-deps.ts';
import type { ProfileChange } from './account-port.ts';
import { AccountProblem, refuseIf } from './account-problem.ts';
import type { AccountRecord } from './account-record.ts';
import { checkEmail, normaliseEmail } from './credentials.ts';
import { issueToken } from './one-time-token.ts';
import { checkCurrency, checkLang, checkName, checkTimezone } from './profile-fields.ts';

export async function loadOwnAccount(
  userId: string,
  deps: Pick<AccountDeps, 'accounts'>,
): Promise<AccountRecord> {
  const account = await deps.accounts.loadAccount(userId);
  if (!account || account.deleted) throw new AccountProblem('unauthenticated', 'unauthenticated');
  return account;
}

export interface ProfileInput {
  /** When given, must be the signed-in user's id (POST /api/account/update sends it). */
  userId: string;
  name?: string | undefined;
  lang?: string | undefined;
  timezone?: string | undefined;
  currency?: string | undefined;
  /** The revision the edit started from; a newer saved one refuses the update (docs/product.md#edit-conflicts). */
  expectedRevision?: number | undefined;
}

/** Every field is checked before anything is written, so a refused update changes nothing. */
export async function updateProfile(userId: string, input: ProfileInput, deps: AccountDeps): Promise<void> {
  if (input.userId !== '' && input.userId !== userId) throw new AccountProblem('forbidden', 'forbidden');
  const change: ProfileChange = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    refuseIf(checkName(name));
    change.name = name;
  }
  if (input.lang !== undefined) {
    refuseIf(checkLang(input.lang));
    change.lang = input.lang as 'ja' | 'en';
  }
  if (input.timezone !== undefined) {
    refuseIf(checkTimezone(input.timezone));
    change.timezone = input.timezone;
  }
  if (input.currency !== undefined) {
    refuseIf(checkCurrency(input.currency));
    // The payment provider bills in the sign-up currency from then on (docs/product.md#prices).
    const billed = await deps.accounts.billingCurrency(userId);
    if (billed && billed !== input.currency) throw new AccountProblem('invalid', 'currency_fixed');
    change.currency = input.currency as 'JPY' | 'USD';
  }
  if (Object.keys(change).length === 0) throw new AccountProblem('invalid', 'no_changes');
  if (input.expectedRevision !== undefined) change.expectedRevision = input.expectedRevision;
  if (!(await deps.accounts.updateProfile(userId, change)))
    throw new AccountProblem('conflict', 'edit_conflict');
}

/**
 * Mails a link to the new sign-in address; the address changes only when that link is opened,
 * and not if another account has taken it by then. The answer does not say whether it is taken.
 */
export async function changeEmail(userId: string, email: string, deps: AccountDeps): Promise<void> {
  const address = normaliseEmail(email);
  refuseIf(checkEmail(address));
  const account = await loadOwnAccount(userId, deps);
  if (account.email?.toLowerCase() === address.toLowerCase())
    throw new AccountProblem('invalid', 'no_changes');
  await deps.accounts.queueMail({
    kind: 'change_email',
    userId,
    to: address,
    lang: account.lang,
    token: issueToken('change_email', deps.clock.now()),
    tokenSubject: address,
  });
}

/** Adds an additional address within the plan's `mail` quota; it counts once verified. */
export async function addMail(userId: string, email: string, deps: AccountDeps): Promise<void> {
  const address = normaliseEmail(email);
  refuseIf(checkEmail(address));
  const account = await loadOwnAccount(userId, deps);
  if (account.email?.toLowerCase() === address.toLowerCase())
    throw new AccountProblem('exists', 'mail_already_added');
  const quota = planQuota(account.subscription.plan, account.subscription.options);
  if (account.mails.length >= quota.mail) throw new AccountProblem('precondition', 'mail_quota_exceeded');
  const id = deps.newId();
  const outcome = await deps.accounts.addMail(
    { id, userId, email: address, createdAt: deps.clock.now() },
    {
      kind: 'verify_mail',
      userId,
      to: address,
      lang: account.lang,
      token: issueToken('verify_mail', deps.clock.now()),
      tokenSubject: id,
    },
  );
  if (outcome === 'duplicate') throw new AccountProblem('exists', 'mail_already_added');
}

export async function removeMail(userId: string, mailId: string, deps: AccountDeps): Promise<void> {
  if (!(await deps.accounts.removeMail(userId, mailId)))
    throw new AccountProblem('not_found', 'mail_not_found');
}
