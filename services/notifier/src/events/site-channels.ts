import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import { executeUrl } from '../clients/discord-webhook-client.ts';
import type { NotificationProfile } from '../domain/notification-profile.ts';
import type { TargetNotice } from '../domain/target-notice.ts';

/** The account's e-mail recipients: its address and the verified additional ones. */
export function accountRecipients(profile: NotificationProfile): string[] {
  return [...new Set([profile.email, ...profile.verifiedMails].filter((address) => address !== ''))];
}

/** A site's e-mail recipients: the account's, when the site mails at all. */
export function mailRecipients(notice: TargetNotice, profile: NotificationProfile): string[] {
  return notice.mailNotify ? accountRecipients(profile) : [];
}

type DiscordDeps = { secretBox: SecretBox; discordApiBase: string | (() => string) };

/** The account's own Discord webhook, opened; null when none is linked or it does not open. */
export function accountDiscordUrl(
  profile: NotificationProfile,
  userId: string,
  deps: DiscordDeps,
  log: Logger,
): string | null {
  if (!profile.sealedDiscordWebhook) return null;
  return openDiscordUrl(
    { value: profile.sealedDiscordWebhook, context: `account:${userId}:discord_webhook` },
    deps,
    log,
  );
}

/**
 * The Discord webhook a site's messages go to (its own or the account's), opened and turned into
 * the address to post to; null when the site has none or it does not open to a Discord webhook.
 */
export function siteDiscordUrl(
  notice: TargetNotice,
  profile: NotificationProfile,
  deps: DiscordDeps,
  log: Logger,
): string | null {
  const sealed =
    notice.chatNotify === 'site'
      ? { value: notice.sealedDiscordWebhook, context: `target:${notice.targetId}:discord_webhook` }
      : notice.chatNotify === 'account'
        ? { value: profile.sealedDiscordWebhook, context: `account:${notice.userId}:discord_webhook` }
        : null;
  if (!sealed) return null;
  if (!sealed.value) {
    log.info({ chatNotify: notice.chatNotify }, 'chat notify on but no Discord webhook linked');
    return null;
  }
  return openDiscordUrl(sealed, deps, log);
}

/** A sealed Discord webhook opened into the address to post to; null (and a warning) when it cannot be. */
function openDiscordUrl(
  sealed: { value: string; context: string },
  deps: DiscordDeps,
  log: Logger,
): string | null {
  let url: string | null = null;
  try {
    const apiBase = typeof deps.discordApiBase === 'function' ? deps.discordApiBase() : deps.discordApiBase;
    url = executeUrl(deps.secretBox.open(sealed.value, sealed.context), apiBase);
  } catch {
    // Sealed under a key no longer kept, or for another site: it will never open.
  }
  if (!url) log.warn('stored Discord webhook does not open to a Discord webhook URL; not posted');
  return url;
}

// The web app's pages for one site's history (web/src/route-paths.ts targetDetail / siteHistory).
const HISTORY_PATHS: Record<number, string> = { 1: '/history', 2: '/target2' };

/** The link to a site's history page in the web app. */
export function historyUrl(publicUrl: string, notice: TargetNotice): string {
  if (!publicUrl) return '';
  const path = HISTORY_PATHS[notice.version] ?? HISTORY_PATHS[2];
  return new URL(`${path}?id=${encodeURIComponent(notice.targetId)}`, publicUrl).toString();
}
