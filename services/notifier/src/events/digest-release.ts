import { createHash } from 'node:crypto';
import type { Db } from '@mimamori/db';
import { updateDetected } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { WebhookPoster } from '@mimamori/webhook';
import { postDiscordMessage } from '../clients/discord-webhook-client.ts';
import { chatLinksForSite, type ProfileChatLink } from '../domain/chat-links.ts';
import type { DeliveryChannel, DeliveryLedger } from '../domain/delivery-ledger.ts';
import {
  type Digest,
  type DigestItem,
  digestChatMessage,
  digestDiscordMessage,
  digestMailContent,
  digestWebhookPayload,
} from '../domain/digest-content.ts';
import type { NotificationProfile, NotificationProfileSource } from '../domain/notification-profile.ts';
import type { NotifierClock } from '../domain/site-quiet-hours.ts';
import { noticeSummary } from '../domain/update-wording.ts';
import { type ProfileWebhook, webhooksFor } from '../domain/webhook-payload.ts';
import {
  countDigestAttempt,
  type DigestBatch,
  dueDigests,
  removeDigest,
} from '../store/held-update-store.ts';
import { loadNotice } from '../store/notice-store.ts';
import { type ChatSetup, sendChat } from './chat-send.ts';
import { type ClaimedSend, type SendOutcome, sendClaimed } from './claimed-send.ts';
import { accountRecipients, historyUrl, siteDiscordUrl } from './site-channels.ts';
import { sendWebhook } from './webhook-send.ts';

export interface DigestReleaseDeps {
  db: Db;
  deliveries: DeliveryLedger;
  mail: MailTransport;
  secretBox: SecretBox;
  profiles: NotificationProfileSource;
  discordApiBase: string | (() => string);
  publicUrl: () => string;
  webhooks: Pick<WebhookPoster, 'post'>;
  logger: Logger;
  clock: NotifierClock;
  /** The chat platforms; without them the chat links get no digest (a harness without them). */
  chat?: ChatSetup | undefined;
}

/** Release passes (one a minute) a digest's failing channel is tried in before it is given up as failed. */
const MAX_PASSES = 60;

/** A digest is written for nobody in particular: the release pass is not an event to keep alive. */
const NO_EVENT = { working: () => undefined };

type Channel =
  | { key: string; kind: 'email'; to: string[] }
  | { key: string; kind: 'discord'; url: string }
  | { key: string; kind: 'webhook'; webhook: ProfileWebhook }
  | { key: string; kind: 'chat'; link: ProfileChatLink };

/**
 * Sends the digests whose quiet hours ended (docs/product.md#quiet-hours): per user and release,
 * one digest per channel (the account's mail recipients for the sites that mail, each Discord
 * webhook once, each signed webhook, each chat link) listing the held updates that channel would
 * have told, each through the delivery ledger (`digest:<user>:<release>:<first held>:<channel>`). The held rows go
 * only when every channel is done, so a pass that dies mid-way leaves the rest to the next pass
 * and the ledger keeps what was sent from going twice.
 */
export function digestRelease(deps: DigestReleaseDeps): () => Promise<void> {
  return async () => {
    for (const batch of await dueDigests(deps.db, deps.clock.now())) {
      try {
        await releaseDigest(batch);
      } catch (error) {
        deps.logger.warn({ err: error, digest: batch.id }, 'digest not sent; trying at the next pass');
        await countDigestAttempt(deps.db, batch.id);
      }
    }
  };

  async function releaseDigest(batch: DigestBatch): Promise<void> {
    const log = deps.logger.child({ digest: batch.id });
    const profile = await deps.profiles.read(batch.userId);
    if (!profile) {
      // The account ended: there is nobody to tell.
      await removeDigest(deps.db, batch.id);
      return;
    }
    const channels = new Map<string, { channel: Channel; items: DigestItem[] }>();
    for (const held of batch.updates) {
      const event = updateDetected.decode(held.event);
      const notice = await loadNotice(deps.db, held.targetId);
      // A site deleted since is told to nobody.
      if (!notice || notice === 'deleted') continue;
      const item: DigestItem = {
        updateId: event.updateId,
        targetId: event.targetId,
        label: notice.label,
        url: notice.url,
        summary: noticeSummary(
          event.areas.map((area) => ({ ...area, label: notice.areaLabels[area.areaId] ?? '' })),
          profile.lang,
        ),
        detectedAt: event.detectedAt ?? held.heldAt,
        historyUrl: historyUrl(deps.publicUrl(), notice),
      };
      const site: Channel[] = [];
      if (notice.mailNotify) {
        const to = accountRecipients(profile);
        if (to.length > 0) site.push({ key: 'email', kind: 'email', to });
      }
      const discord = siteDiscordUrl(notice, profile, deps, log);
      if (discord) site.push({ key: `discord:${digestOf(discord)}`, kind: 'discord', url: discord });
      for (const webhook of webhooksFor(profile.webhooks, held.targetId)) {
        site.push({ key: `webhook:${webhook.id}`, kind: 'webhook', webhook });
      }
      for (const link of chatLinksForSite(profile.chatLinks, notice)) {
        site.push({ key: `chat:${link.id}`, kind: 'chat', link });
      }
      for (const channel of site) {
        const entry = channels.get(channel.key) ?? { channel, items: [] };
        entry.items.push(item);
        channels.set(channel.key, entry);
      }
    }
    const from = new Date(Math.min(...batch.updates.map((held) => held.heldAt.getTime())));
    const lastTry = batch.attempts + 1 >= MAX_PASSES;
    const attempts = await Promise.all(
      [...channels.values()].map(({ channel, items }) =>
        send(
          `digest:${batch.id}`,
          channel,
          {
            lang: profile.lang,
            timezone: profile.timezone,
            from,
            until: batch.releaseAt,
            items: items.sort((a, b) => a.detectedAt.getTime() - b.detectedAt.getTime()),
          },
          { profile, userId: batch.userId, log, lastTry },
        ),
      ),
    );
    if (attempts.every((attempt) => !attempt.retry)) {
      await removeDigest(deps.db, batch.id);
      log.info({ channels: channels.size, updates: batch.updates.length }, 'digest released');
    } else {
      await countDigestAttempt(deps.db, batch.id);
    }
  }

  function send(
    id: string,
    channel: Channel,
    digest: Digest,
    context: { profile: NotificationProfile; userId: string; log: Logger; lastTry: boolean },
  ): Promise<ClaimedSend> {
    const deliveryId = `${id}:${channel.key}`;
    const { log, lastTry } = context;
    const claimed = (kind: DeliveryChannel, work: () => Promise<SendOutcome>) =>
      sendClaimed(deps.deliveries, NO_EVENT, deliveryId, kind, work, { lastTry });
    switch (channel.kind) {
      case 'email':
        return claimed('email', async () => {
          try {
            await deps.mail.send({ to: channel.to, ...digestMailContent(digest) });
          } catch (error) {
            log.warn({ err: error, deliveryId }, 'digest mail not sent; will retry');
            return { retryAfterMs: null };
          }
          log.info({ deliveryId, recipients: channel.to.length }, 'digest mail sent');
          return 'sent';
        });
      case 'discord':
        return claimed('discord', async () => {
          const outcome = await postDiscordMessage(channel.url, digestDiscordMessage(digest));
          if (outcome.kind === 'sent') return 'sent';
          log.warn({ deliveryId, outcome }, 'digest Discord message not sent');
          return outcome.kind === 'refused' ? 'refused' : { retryAfterMs: outcome.afterMs };
        });
      case 'webhook':
        return sendWebhook(
          deliveryId,
          NO_EVENT,
          { ...channel.webhook, userId: context.userId },
          () => digestWebhookPayload(id, digest),
          deps,
          log,
          lastTry,
        );
      case 'chat':
        return sendChat(
          deliveryId,
          NO_EVENT,
          { ...channel.link, userId: context.userId },
          async () => digestChatMessage(digest),
          deps,
          log,
          lastTry,
        );
    }
  }
}

/** A Discord webhook named in a delivery id without its token. */
function digestOf(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 16);
}
