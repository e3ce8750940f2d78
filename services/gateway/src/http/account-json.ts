import type { accountV1 } from '@mimamori/contracts';
import { type AccountSettings, discordState } from '@mimamori/http-api';

/** The account screen's data, snake_case like the rest of the API. */
export function toAccountJson(account: accountV1.AccountSettings | undefined): AccountSettings {
  // The account service answers every call with the account; without one the answer is not made.
  if (!account) throw new Error('the account service answered without the account');
  return {
    user_id: account.userId,
    name: account.name,
    email: account.email,
    email_verified: account.emailVerified,
    mails: account.mails.map((mail) => ({
      id: mail.id,
      index: mail.index,
      email: mail.email,
      verified: mail.verified,
    })),
    lang: account.lang,
    timezone: account.timezone,
    currency: account.currency,
    has_password: account.hasPassword,
    x_linked: account.xLinked,
    discord_state: discordState.parse(account.discordState),
    plan: account.plan,
    cycle: account.cycle,
    subscription_status: account.subscriptionStatus,
    trial_ends_at: account.trialEndsAt?.toISOString() ?? null,
    delete_at: account.deleteAt?.toISOString() ?? null,
    revision: account.revision,
  };
}
