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
}

/** The notice, or 'deleted' for a site that is gone, or null for one not announced yet. */
export type NoticeLookup = TargetNotice | 'deleted' | null;
