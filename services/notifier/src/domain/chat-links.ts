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
 * The chat links a site's messages go to, following the site's chat notice (docs/product.md#chat-links):
 * off ("none") → none, as chat is a plan feature each site takes a slot of; "account" → the
 * account-wide links and the site's own; "site" → the site's own links only, as its own Discord
 * webhook replaces the account's.
 */
export function chatLinksForSite(
  links: readonly ProfileChatLink[],
  notice: Pick<TargetNotice, 'targetId' | 'chatNotify'>,
): ProfileChatLink[] {
  const own = (link: ProfileChatLink) => link.targetId === notice.targetId;
  if (notice.chatNotify === 'account') return links.filter((link) => link.targetId === '' || own(link));
  if (notice.chatNotify === 'site') return links.filter(own);
  return [];
}

/** What is about the account rather than a site (a filing): the account-wide links. */
export function accountChatLinks(links: readonly ProfileChatLink[]): ProfileChatLink[] {
  return links.filter((link) => link.targetId === '');
}
