import type { BusMessage } from '@mimamori/bus';
import {
  type ChatAdapter,
  type ChatCredentials,
  type ChatImage,
  type ChatMessage,
  type ChatPlatform,
  type ChatSettingsSource,
  isChatPlatform,
  readChatSettings,
} from '@mimamori/chat';
import { updateImageLinks } from '@mimamori/image-links';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { ChatLinkBreaker } from '../clients/chat-link-client.ts';
import type { ProfileChatLink } from '../domain/chat-links.ts';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import { mailPictures } from '../domain/mail-pictures.ts';
import { imageFileName, type UpdateImage } from '../domain/update-notice.ts';
import { type ClaimedSend, sendClaimed } from './claimed-send.ts';

/** What sending to the chat links takes: the platforms, their settings and the account's breaker. */
export interface ChatSetup {
  adapters: Record<ChatPlatform, ChatAdapter | undefined>;
  settings: ChatSettingsSource;
  links: ChatLinkBreaker;
  /** Signs the public picture links LINE and Teams need (IMAGE_LINK_KEY); null: no public pictures. */
  imageLinkKey: Buffer | null;
}

export interface ChatSendDeps {
  deliveries: DeliveryLedger;
  secretBox: SecretBox;
  chat?: ChatSetup | undefined;
}

/**
 * One message to one chat link, once (`<what>:chat:<link id>` in the delivery ledger). The
 * platform's answer decides: sent; retry after its Retry-After (the event is handed back); refused
 * for good; or dead: the account service breaks the link and mails its owner once, and the
 * delivery is given up. Credentials are opened only here and never logged.
 */
export async function sendChat(
  deliveryId: string,
  message: Pick<BusMessage, 'working'>,
  link: ProfileChatLink & { userId: string },
  content: () => Promise<ChatMessage>,
  deps: ChatSendDeps,
  log: Logger,
  lastTry: boolean,
): Promise<ClaimedSend> {
  const chat = deps.chat;
  const adapter = chat && isChatPlatform(link.platform) ? chat.adapters[link.platform] : undefined;
  const settings = readChatSettings(chat?.settings);
  if (!chat || !adapter?.enabled(settings)) {
    log.warn({ deliveryId, platform: link.platform }, 'chat platform not available in this run; not posted');
    return { retry: false };
  }
  let credentials: ChatCredentials;
  try {
    credentials = JSON.parse(
      deps.secretBox.open(link.sealedCredentials, `account:${link.userId}:chat_link:${link.id}`),
    ) as ChatCredentials;
  } catch {
    log.warn({ deliveryId }, 'chat link credentials do not open; not posted');
    return { retry: false };
  }
  return sendClaimed(
    deps.deliveries,
    message,
    deliveryId,
    'chat',
    async () => {
      const outcome = await adapter.send(
        { platform: adapter.platform, credentials },
        await content(),
        settings,
        { deliveryId },
      );
      switch (outcome.kind) {
        case 'sent':
          log.info({ deliveryId, platform: adapter.platform }, 'chat message sent');
          return 'sent';
        case 'refused':
          log.warn({ deliveryId, reason: outcome.reason }, 'chat platform refused the message; not retried');
          return 'refused';
        case 'retry':
          log.warn(
            { deliveryId, reason: outcome.reason, afterMs: outcome.afterMs, lastTry },
            'chat message not sent; will retry',
          );
          return { retryAfterMs: outcome.afterMs };
        case 'dead':
          try {
            await chat.links.markDead(link.userId, link.id, outcome.reason);
          } catch (error) {
            // The link is not marked yet: the next try finds it dead again and marks it then.
            log.warn({ err: error, deliveryId }, 'chat link dead but not marked yet; will retry');
            return { retryAfterMs: null };
          }
          log.warn({ deliveryId, reason: outcome.reason }, 'chat link dead; marked broken, not retried');
          return 'refused';
      }
    },
    { lastTry },
  );
}

/**
 * An update's pictures as the chat platforms take them: PNG or JPEG bytes for uploads (WebP, as
 * the diff service writes, becomes JPEG) and, where the product has a public address and an image
 * link key, an unguessable expiring URL for the platforms that take only URLs.
 */
export async function chatImages(
  images: readonly UpdateImage[],
  source: { targetId: string; blobKeys: { before: string; after: string } },
  options: { publicUrl: string; key: Buffer | null; nowSeconds: number },
): Promise<ChatImage[]> {
  const pictures = await mailPictures(images);
  const links =
    options.key && options.publicUrl
      ? updateImageLinks(
          options.key,
          options.publicUrl,
          {
            targetId: source.targetId,
            beforeBlobKey: source.blobKeys.before,
            afterBlobKey: source.blobKeys.after,
          },
          options.nowSeconds,
        )
      : { before: null, after: null };
  return pictures.map((image) => ({
    role: image.name,
    data: Buffer.from(image.data),
    contentType: image.contentType === 'image/png' ? 'image/png' : 'image/jpeg',
    filename: imageFileName(image),
    publicUrl: links[image.name],
  }));
}
