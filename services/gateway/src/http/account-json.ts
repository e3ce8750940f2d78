import type { accountV1 } from '@mimamori/contracts';

/** The account screen's data, snake_case like the rest of the API. */
export function toAccountJson(account: accountV1.AccountSettings | undefined) {
  if (!account) return null;
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
    discord_state: account.discordState,
    plan: account.plan,
    cycle: account.cycle,
    subscription_status: account.subscriptionStatus,
    trial_ends_at: account.trialEndsAt?.toISOString() ?? null,
    delete_at: account.deleteAt?.toISOString() ?? null,
  };
}
