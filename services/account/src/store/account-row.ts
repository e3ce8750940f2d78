import type { Cycle, PlanId } from '@mimamori/plans';
import type { AccountRecord, DiscordState, MailAddress } from '../domain/account-record.ts';

export interface AccountRow {
  id: string;
  name: string;
  email: string | null;
  email_verified_at: Date | null;
  lang: string;
  timezone: string | null;
  currency: string;
  password_hash: string | null;
  x_subject: string | null;
  deleted_at: Date | null;
  discord_state: string;
  plan: number | null;
  cycle: string | null;
  options: string[] | null;
  status: number | null;
  trial_ends_at: Date | null;
  delete_at: Date | null;
  has_card: boolean | null;
  renewal_suspend_at: Date | null;
  settings_revision: string | number;
}

export const ACCOUNT_COLUMNS = `u.id, u.name, u.email, u.email_verified_at, u.lang, u.timezone, u.currency,
  u.password_hash, u.x_subject, u.deleted_at, u.discord_state, u.settings_revision,
  s.plan, s.cycle, s.options, s.status, s.trial_ends_at, s.delete_at, s.has_card, b.suspend_at AS renewal_suspend_at`;

export function toAccountRecord(row: AccountRow, mails: MailAddress[]): AccountRecord {
  return {
    id: row.id,
    name: row.name,
    settingsRevision: Number(row.settings_revision),
    email: row.email,
    emailVerified: row.email_verified_at !== null,
    lang: row.lang === 'en' ? 'en' : 'ja',
    timezone: row.timezone,
    currency: row.currency === 'USD' ? 'USD' : 'JPY',
    hasPassword: row.password_hash !== null,
    xLinked: row.x_subject !== null,
    deleted: row.deleted_at !== null,
    discordState: row.discord_state as DiscordState,
    // Accounts made before subscriptions existed have none: no plan, no status.
    subscription: {
      plan: (row.plan ?? 0) as PlanId,
      cycle: (row.cycle ?? 'month') as Cycle,
      options: row.options ?? [],
      status: row.status ?? 0,
      trialEndsAt: row.trial_ends_at,
      deleteAt: row.delete_at,
      hasCard: row.has_card ?? false,
      renewalSuspendAt: row.renewal_suspend_at,
    },
    mails,
  };
}
