import type { TargetNotice } from './target-notice.ts';

/** A linked chat link as the notification profile carries it; its credentials stay sealed until a send. */
export interface ProfileChatLink {
  id: string;
  platform: string;
  /** Empty for account-wide. */
  targetId: string;
  /** One JSON object, sealed with the context `account:<user id>:chat_link:<id>`. */
  sealedCredentials: string;
}

/**
 * The chat links a site's messages go to, following the site's chat setting as Discord does
 * (docs/product.md#chat-links): "account" → the account-wide links, "site" → the site's own
 * links, "none" → none (chat is a plan feature each site takes a slot of).
 */
export function chatLinksForSite(
  links: readonly ProfileChatLink[],
  notice: Pick<TargetNotice, 'targetId' | 'chatNotify'>,
): ProfileChatLink[] {
  if (notice.chatNotify === 'account') return links.filter((link) => link.targetId === '');
  if (notice.chatNotify === 'site') return links.filter((link) => link.targetId === notice.targetId);
  return [];
}

/** What is about the account rather than a site (a filing): the account-wide links. */
export function accountChatLinks(links: readonly ProfileChatLink[]): ProfileChatLink[] {
  return links.filter((link) => link.targetId === '');
}
