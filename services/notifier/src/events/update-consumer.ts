import type { BlobStore } from '@mimamori/blob-store';
import { type BusMessage, type CatalogEntry, exponentialRetryDelay, type RetryDelay } from '@mimamori/bus';
import type { ChatMessage } from '@mimamori/chat';
import type { Db } from '@mimamori/db';
import { updateDetected } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import { isQuiet, quietEnds } from '@mimamori/quiet-hours';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { WebhookPoster } from '@mimamori/webhook';
import { postDiscordMessage } from '../clients/discord-webhook-client.ts';
import { chatLinksForSite } from '../domain/chat-links.ts';
import { updateChatMessage } from '../domain/chat-message.ts';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import { discordMessage, withoutPictures } from '../domain/discord-message.ts';
import { mailPictures } from '../domain/mail-pictures.ts';
import type { NotificationProfile, NotificationProfileSource } from '../domain/notification-profile.ts';
import { type NotifierClock, siteQuietHours } from '../domain/site-quiet-hours.ts';
import type { TargetNotice } from '../domain/target-notice.ts';
import { loadUpdateImages } from '../domain/update-images.ts';
import { updateMailContent } from '../domain/update-mail-content.ts';
import type { UpdateImage, UpdateNotice } from '../domain/update-notice.ts';
import { noticeSummary } from '../domain/update-wording.ts';
import { webhookPayload, webhooksFor } from '../domain/webhook-payload.ts';
import { readerZone } from '../domain/written-time.ts';
import { holdUpdate, updateHeldOrStarted } from '../store/held-update-store.ts';
import { loadNotice } from '../store/notice-store.ts';
import { type ChatSetup, chatImages, sendChat } from './chat-send.ts';
import { type ClaimedSend, sendClaimed } from './claimed-send.ts';
import { historyUrl, mailRecipients, siteDiscordUrl } from './site-channels.ts';
import { sendWebhook } from './webhook-send.ts';

export interface UpdateConsumerDeps {
  db: Db;
  deliveries: DeliveryLedger;
  mail: MailTransport;
  /** Opens the sealed Discord webhooks (per site and account-wide). */
  secretBox: SecretBox;
  profiles: NotificationProfileSource;
  blobs: BlobStore;
  /** Discord itself, or a stand-in in tests; stored webhook URLs always name discord.com. */
  discordApiBase: string | (() => string);
  /** The web app's address (PUBLIC_URL), for the link to the site's history. */
  publicUrl: () => string;
  /** Posts signed webhook deliveries through the SSRF guard. */
  webhooks: Pick<WebhookPoster, 'post'>;
  /** The chat platforms; without it the account's chat links get nothing (a harness without them). */
  chat?: ChatSetup | undefined;
  logger: Logger;
  /** When quiet hours hold (docs/product.md#quiet-hours). */
  clock: NotifierClock;
  retryDelay?: RetryDelay;
}

/** How many times JetStream hands the event over; the last failed try ends a delivery as failed. */
const MAX_DELIVER = 20;

/** One channel's attempt: done (sent, skipped or refused for good) or to be tried again. */
type Attempt = ClaimedSend;
const DONE: Attempt = { retry: false };

/**
 * Announces an update the site's rules said to tell: an e-mail to the account address and the
 * verified additional ones, and a Discord message to the site's or the account's webhook. Each
 * channel is its own delivery (`update:<update id>:email` / `:discord`) tried on its own, so one
 * that fails never holds back the other, and a redelivered event sends only what is missing.
 * A failed channel hands the event back after a backoff (Discord's retry_after on a 429); a
 * channel another copy of the event is sending right now hands it back until that copy's claim
 * runs out. The ack wait is the claim's length: a copy that dies mid-send comes back about when
 * its claim is free again. Each of the account's signed webhooks for the site is a delivery of
 * its own too (`update:<update id>:webhook:<webhook id>`, docs/webhooks.md), and so is each of its
 * chat links the site's chat setting names (`update:<update id>:chat:<link id>`, ADR 0021).
 */
export function updateConsumer(deps: UpdateConsumerDeps): CatalogEntry {
  const retryDelay = deps.retryDelay ?? exponentialRetryDelay;
  return {
    stream: updateDetected.stream,
    durable: 'notifier-updates-detected',
    subject: updateDetected.subject,
    maxDeliver: MAX_DELIVER,
    ackWaitMs: deps.deliveries.claimMs,
    concurrency: 8,
    async handler(message) {
      const event = updateDetected.decode(message.data);
      if (!event.notify) return;
      const notice = await loadNotice(deps.db, event.targetId);
      if (notice === 'deleted') return;
      // The site's targets.* event is not in yet (streams are read independently): wait for it.
      if (!notice) throw new Error(`no notice yet for target ${event.targetId}`);
      const profile = await deps.profiles.read(event.userId);
      if (!profile) return;
      // Inside the site's quiet hours the update waits for the digest (docs/product.md#quiet-hours);
      // one held already, or one some channel began to tell, is not held (again).
      const held = await updateHeldOrStarted(deps.db, event.updateId, [
        `update:${event.updateId}:email`,
        `update:${event.updateId}:discord`,
        ...profile.webhooks.map((webhook) => `update:${event.updateId}:webhook:${webhook.id}`),
        ...profile.chatLinks.map((link) => `update:${event.updateId}:chat:${link.id}`),
      ]);
      if (held === 'held') return;
      const quiet = siteQuietHours(notice, profile);
      const now = deps.clock.now();
      const zone = readerZone(profile.timezone, profile.lang);
      if (held === 'none' && isQuiet(quiet, now, zone)) {
        const releaseAt = quietEnds(quiet, now, zone);
        await holdUpdate(deps.db, {
          updateId: event.updateId,
          userId: event.userId,
          targetId: event.targetId,
          heldAt: now,
          releaseAt,
          event: message.data,
        });
        deps.logger.info({ updateId: event.updateId, releaseAt }, 'update held for the quiet hours digest');
        return;
      }

      // Read once, and only when a channel is about to send.
      let images: Promise<UpdateImage[]> | undefined;
      const loadImages = () => {
        images ??= loadUpdateImages(deps.blobs, {
          before: event.beforeScreenshotBlobKey,
          after: event.afterScreenshotBlobKey,
        });
        return images;
      };
      const facts = (): Omit<UpdateNotice, 'images'> => ({
        label: notice.label,
        url: notice.url,
        lang: profile.lang,
        timezone: profile.timezone,
        detectedAt: event.detectedAt ?? new Date(),
        summary: noticeSummary(
          event.areas.map((area) => ({ ...area, label: notice.areaLabels[area.areaId] ?? '' })),
          profile.lang,
        ),
        areas: event.areas.map((area) => ({
          areaId: area.areaId,
          label: notice.areaLabels[area.areaId] ?? '',
          diffText: area.diffText,
          summary: profile.lang === 'ja' ? area.summaryJa : area.summaryEn,
        })),
        areaLabels: notice.areaLabels,
        historyUrl: historyUrl(deps.publicUrl(), notice),
        matched: event.matched,
      });
      const content = async (): Promise<UpdateNotice> => ({ ...facts(), images: await loadImages() });
      // One message for every chat link of this copy: the pictures converted once.
      let chatMessage: Promise<ChatMessage> | undefined;
      const chatContent = () => {
        chatMessage ??= (async () => {
          const images = await chatImages(
            await loadImages(),
            {
              targetId: event.targetId,
              blobKeys: { before: event.beforeScreenshotBlobKey, after: event.afterScreenshotBlobKey },
            },
            {
              publicUrl: deps.publicUrl(),
              key: deps.chat?.imageLinkKey ?? null,
              nowSeconds: Math.floor(Date.now() / 1_000),
            },
          );
          return updateChatMessage({ ...facts(), images: [] }, images);
        })();
        return chatMessage;
      };
      // The same bytes for every URL and retry of this copy; pictures go as links, none is read.
      let payload: string | undefined;
      const webhookBody = () => {
        payload ??= webhookPayload(event, facts(), pictureLinks(deps.publicUrl(), event));
        return payload;
      };
      const log = deps.logger.child({ updateId: event.updateId, targetId: event.targetId });
      const lastTry = message.deliveryCount >= MAX_DELIVER;
      const attempts = await Promise.all([
        byMail(`update:${event.updateId}:email`, message, notice, profile, content, deps, log, lastTry),
        byDiscord(`update:${event.updateId}:discord`, message, notice, profile, content, deps, log, lastTry),
        ...webhooksFor(profile.webhooks, event.targetId).map((webhook) =>
          sendWebhook(
            `update:${event.updateId}:webhook:${webhook.id}`,
            message,
            { ...webhook, userId: event.userId },
            webhookBody,
            deps,
            log,
            lastTry,
          ),
        ),
        ...chatLinksForSite(profile.chatLinks, notice).map((link) =>
          sendChat(
            `update:${event.updateId}:chat:${link.id}`,
            message,
            { ...link, userId: event.userId },
            chatContent,
            deps,
            log,
            lastTry,
          ),
        ),
      ]);
      const pending = attempts.filter((attempt) => attempt.retry);
      if (pending.length === 0) return;
      const delays = pending.map((attempt) => attempt.afterMs ?? retryDelay(message.deliveryCount));
      message.nak(Math.max(...delays));
    },
  };
}

/**
 * The gateway's links to an update's pictures (served to the signed-in owner only, looked up in
 * their own history by update id and the check's UTC day); null where the site takes none.
 */
function pictureLinks(
  publicUrl: string,
  event: {
    targetId: string;
    updateId: string;
    detectedAt?: Date | undefined;
    beforeScreenshotBlobKey: string;
    afterScreenshotBlobKey: string;
  },
) {
  const link = (image: 'before' | 'after', key: string) => {
    if (!publicUrl || !key) return null;
    const query = new URLSearchParams({
      id: event.targetId,
      image,
      update: event.updateId,
      day: (event.detectedAt ?? new Date()).toISOString().slice(0, 10),
    });
    return new URL(`/api/v2/screenshot?${query}`, publicUrl).toString();
  };
  return {
    before: link('before', event.beforeScreenshotBlobKey),
    after: link('after', event.afterScreenshotBlobKey),
  };
}

async function byMail(
  deliveryId: string,
  message: BusMessage,
  notice: TargetNotice,
  profile: NotificationProfile,
  content: () => Promise<UpdateNotice>,
  deps: UpdateConsumerDeps,
  log: Logger,
  lastTry: boolean,
): Promise<Attempt> {
  const to = mailRecipients(notice, profile);
  if (to.length === 0) return DONE;
  return sendClaimed(
    deps.deliveries,
    message,
    deliveryId,
    'email',
    async () => {
      try {
        const notice = await content();
        const images = await mailPictures(notice.images);
        await deps.mail.send({ to, ...updateMailContent({ ...notice, images }) });
      } catch (error) {
        log.warn({ err: error, deliveryId }, 'update mail not sent; will retry');
        return { retryAfterMs: null };
      }
      log.info({ deliveryId, recipients: to.length }, 'update mail sent');
      return 'sent';
    },
    { lastTry },
  );
}

async function byDiscord(
  deliveryId: string,
  message: BusMessage,
  notice: TargetNotice,
  profile: NotificationProfile,
  content: () => Promise<UpdateNotice>,
  deps: UpdateConsumerDeps,
  log: Logger,
  lastTry: boolean,
): Promise<Attempt> {
  const webhook = siteDiscordUrl(notice, profile, deps, log.child({ deliveryId }));
  if (!webhook) return DONE;
  return sendClaimed(
    deps.deliveries,
    message,
    deliveryId,
    'discord',
    async () => {
      const post = discordMessage(await content());
      let outcome = await postDiscordMessage(webhook, post);
      if (outcome.kind === 'refused' && outcome.reason === '413' && post.files.length > 0) {
        // Pictures over the webhook's upload limit: the message still goes, without them.
        log.warn({ deliveryId }, 'screenshots too large for Discord; sending the message without them');
        outcome = await postDiscordMessage(webhook, withoutPictures(post));
      }
      switch (outcome.kind) {
        case 'sent':
          log.info({ deliveryId }, 'Discord message sent');
          return 'sent';
        case 'refused':
          log.warn({ deliveryId, status: outcome.reason }, 'Discord refused the message; not retried');
          return 'refused';
        case 'retry':
          log.warn(
            { deliveryId, reason: outcome.reason, afterMs: outcome.afterMs },
            'Discord message not sent; will retry',
          );
          return { retryAfterMs: outcome.afterMs };
      }
    },
    { lastTry },
  );
}
