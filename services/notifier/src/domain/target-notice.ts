import type { QuietHours } from '@mimamori/quiet-hours';

/** Whose quiet hours a site keeps: the account's, none, or its own (docs/product.md#quiet-hours). */
export type SiteQuietMode = 'account' | 'none' | 'own';

/** Who is told about a site's updates and how, as the target service last announced it. */
export interface TargetNotice {
  targetId: string;
  userId: string;
  label: string;
  url: string;
  mailNotify: boolean;
  /** "none", "account" (the account's Discord link) or "site" (sealedDiscordWebhook). */
  chatNotify: string;
  /** Sealed with the context `target:<target id>:discord_webhook`. */
  sealedDiscordWebhook: string;
  /** 1 or 2: which of the SPA's pages shows the site's history. */
  version: number;
  /** Each area's name by its id, as the person gave it. */
  areaLabels: Record<string, string>;
  /** Failed checks of one kind in a row before the failure alert (docs/product.md#failure-alerts). */
  failureAlertAfter: number;
  /** Days without an update before the silence alert; 0: off (docs/product.md#silence-alerts). */
  silenceAlertDays: number;
  /** Whose quiet hours the site keeps (docs/product.md#quiet-hours); `quietHours` for 'own'. */
  quietMode: SiteQuietMode;
  quietHours: QuietHours;
}

/** The notice, or 'deleted' for a site that is gone, or null for one not announced yet. */
export type NoticeLookup = TargetNotice | 'deleted' | null;
