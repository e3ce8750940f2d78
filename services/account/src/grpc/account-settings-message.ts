import type { accountV1 } from '@mimamori/contracts';
import type { AccountRecord } from '../domain/account-record.ts';

export function toAccountSettings(account: AccountRecord): accountV1.AccountSettings {
  const sub = account.subscription;
  return {
    userId: account.id,
    name: account.name,
    email: account.email ?? '',
    emailVerified: account.emailVerified,
    mails: account.mails.map((mail) => ({ ...mail })),
    lang: account.lang,
    timezone: account.timezone ?? '',
    currency: account.currency,
    hasPassword: account.hasPassword,
    xLinked: account.xLinked,
    discordState: account.discordState,
    plan: sub.plan,
    cycle: sub.cycle,
    trialEndsAt: sub.trialEndsAt ?? undefined,
    deleteAt: sub.deleteAt ?? undefined,
    subscriptionStatus: sub.status,
    revision: account.settingsRevision,
  };
}
