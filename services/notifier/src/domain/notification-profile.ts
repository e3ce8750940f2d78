import type { QuietHours } from '@mimamori/quiet-hours';
import type { ProfileChatLink } from './chat-links.ts';
import type { ProfileWebhook } from './webhook-payload.ts';

/** Where and how a user is told about updates, as the account service keeps it. */
export interface NotificationProfile {
  email: string;
  verifiedMails: string[];
  lang: 'ja' | 'en';
  timezone: string;
  /** The account-wide Discord webhook, sealed (context `account:<user id>:discord_webhook`); empty when not linked. */
  sealedDiscordWebhook: string;
  /** The account's signed webhooks, account-wide and per site (docs/webhooks.md). */
  webhooks: ProfileWebhook[];
  /** The account's linked chat links, account-wide and per site (docs/product.md#chat-links). */
  chatLinks: ProfileChatLink[];
  /** The account's quiet hours (docs/product.md#quiet-hours); NO_QUIET_HOURS when none are set. */
  quietHours: QuietHours;
}

export interface NotificationProfileSource {
  /** Null for a user who no longer exists. */
  read(userId: string): Promise<NotificationProfile | null>;
  close?(): void;
}
