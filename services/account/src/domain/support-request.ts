import type { AccountDeps } from './account-deps.ts';
import { AccountProblem, refuseIf } from './account-problem.ts';
import { loadOwnAccount } from './account-settings.ts';
import { hashToken, issueToken, looksLikeToken } from './one-time-token.ts';
import { checkNotes, checkSupportType } from './profile-fields.ts';

/** Records the request and mails its confirmation with a follow-up link (/req_support). */
export async function createSupportRequest(
  userId: string,
  input: { type: string; notes: string },
  deps: AccountDeps,
): Promise<string> {
  refuseIf(checkSupportType(input.type) ?? checkNotes(input.notes));
  const account = await loadOwnAccount(userId, deps);
  const id = deps.newId();
  const now = deps.clock.now();
  await deps.accounts.insertSupportRequest(
    { id, userId, type: input.type, notes: input.notes, createdAt: now },
    account.email
      ? {
          kind: 'support_received',
          userId,
          to: account.email,
          lang: account.lang,
          token: issueToken('support_follow_up', now),
          tokenSubject: id,
          supportType: input.type,
        }
      : null,
  );
  return id;
}

const expired = () => new AccountProblem('not_found', 'support_link_expired');

export async function getSupportFollowUp(
  token: string,
  deps: AccountDeps,
): Promise<{ type: string; notes: string }> {
  const request = looksLikeToken(token)
    ? await deps.accounts.findSupportFollowUp(hashToken(token), deps.clock.now())
    : null;
  if (!request) throw expired();
  return request;
}

export async function submitSupportFollowUp(token: string, notes: string, deps: AccountDeps): Promise<void> {
  refuseIf(checkNotes(notes));
  const done =
    looksLikeToken(token) &&
    (await deps.accounts.useSupportFollowUp(hashToken(token), notes, deps.clock.now()));
  if (!done) throw expired();
}
