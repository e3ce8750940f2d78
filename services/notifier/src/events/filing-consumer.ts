import { type BusMessage, type CatalogEntry, exponentialRetryDelay, type RetryDelay } from '@mimamori/bus';
import { filingPublished } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { WebhookPoster } from '@mimamori/webhook';
import { postDiscordMessage } from '../clients/discord-webhook-client.ts';
import { accountChatLinks } from '../domain/chat-links.ts';
import { filingChatMessage } from '../domain/chat-message.ts';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import { type FilingNotice, filingDiscordMessage, filingMailContent } from '../domain/filing-notice.ts';
import type { NotificationProfile, NotificationProfileSource } from '../domain/notification-profile.ts';
import { accountWideWebhooks, filingWebhookPayload } from '../domain/webhook-payload.ts';
import { type ChatSetup, sendChat } from './chat-send.ts';
import { type ClaimedSend, sendClaimed } from './claimed-send.ts';
import { accountDiscordUrl, accountRecipients } from './site-channels.ts';
import { sendWebhook } from './webhook-send.ts';

export interface FilingConsumerDeps {
  deliveries: DeliveryLedger;
  mail: MailTransport;
  /** Opens the account's sealed Discord webhook. */
  secretBox: SecretBox;
  profiles: NotificationProfileSource;
  /** Discord itself, or a stand-in; stored webhook URLs always name discord.com. */
  discordApiBase: string | (() => string);
  /** Posts the notice to the account-wide signed webhooks through the SSRF guard. */
  webhooks: Pick<WebhookPoster, 'post'>;
  /** The chat platforms the account-wide chat links are on. */
  chat?: ChatSetup | undefined;
  logger: Logger;
  retryDelay?: RetryDelay;
}

const DONE: ClaimedSend = { retry: false };
/** How many times JetStream hands a notice over; the last failed try ends a delivery as failed. */
const MAX_DELIVER = 20;

/**
 * Tells a follower of a new filing (filings.published, one event per follower): one e-mail to
 * the account address and its verified additional ones, and one Discord message to the
 * account's webhook when linked, and one signed POST to each account-wide webhook
 * (docs/webhooks.md; a filing belongs to no site, so a site's own webhooks hear nothing), and one
 * message to each account-wide chat link. Each channel is its own delivery (`<event id>:email` /
 * `:discord` / `:webhook:<webhook id>` / `:chat:<link id>`, the
 * event id naming the filing and the user), so a redelivered or republished event sends only
 * what is missing, as for updates (update-consumer.ts).
 */
export function filingConsumer(deps: FilingConsumerDeps): CatalogEntry {
  const retryDelay = deps.retryDelay ?? exponentialRetryDelay;
  return {
    stream: filingPublished.stream,
    durable: 'notifier-filings-published',
    subject: filingPublished.subject,
    maxDeliver: MAX_DELIVER,
    ackWaitMs: deps.deliveries.claimMs,
    concurrency: 4,
    async handler(message) {
      const event = filingPublished.decode(message.data);
      const profile = await deps.profiles.read(event.userId);
      if (!profile) return;
      const notice: FilingNotice = {
        lang: profile.lang,
        timezone: profile.timezone,
        followLabel: event.followLabel,
        companyName: event.companyName,
        companyCode: event.companyCode,
        source: event.source,
        title: event.title,
        documentUrl: event.documentUrl,
        publishedAt: event.publishedAt ?? event.seenAt ?? new Date(),
      };
      const log = deps.logger.child({ eventId: event.eventId });
      // The same bytes for every URL of this copy; only the signature's time changes on a retry.
      let body: string | undefined;
      const attempts = await Promise.all([
        byMail(`${event.eventId}:email`, message, profile, notice, deps, log),
        byDiscord(`${event.eventId}:discord`, message, event.userId, profile, notice, deps, log),
        ...accountWideWebhooks(profile.webhooks).map((webhook) =>
          sendWebhook(
            `${event.eventId}:webhook:${webhook.id}`,
            message,
            { ...webhook, userId: event.userId },
            () =>
              (body ??= filingWebhookPayload(
                event.eventId,
                { id: event.followId, label: event.followLabel },
                { key: event.filingKey },
                notice,
              )),
            deps,
            log,
            message.deliveryCount >= MAX_DELIVER,
          ),
        ),
        ...accountChatLinks(profile.chatLinks).map((link) =>
          sendChat(
            `${event.eventId}:chat:${link.id}`,
            message,
            { ...link, userId: event.userId },
            async () => filingChatMessage(notice),
            deps,
            log,
            message.deliveryCount >= MAX_DELIVER,
          ),
        ),
      ]);
      const pending = attempts.filter((attempt) => attempt.retry);
      if (pending.length === 0) return;
      message.nak(
        Math.max(...pending.map((attempt) => attempt.afterMs ?? retryDelay(message.deliveryCount))),
      );
    },
  };
}

function byMail(
  deliveryId: string,
  message: BusMessage,
  profile: NotificationProfile,
  notice: FilingNotice,
  deps: FilingConsumerDeps,
  log: Logger,
): Promise<ClaimedSend> {
  const to = accountRecipients(profile);
  if (to.length === 0) return Promise.resolve(DONE);
  return sendClaimed(deps.deliveries, message, deliveryId, 'email', async () => {
    try {
      await deps.mail.send({ to, ...filingMailContent(notice) });
    } catch (error) {
      log.warn({ err: error, deliveryId }, 'filing mail not sent; will retry');
      return { retryAfterMs: null };
    }
    log.info({ deliveryId, recipients: to.length }, 'filing mail sent');
    return 'sent';
  });
}

function byDiscord(
  deliveryId: string,
  message: BusMessage,
  userId: string,
  profile: NotificationProfile,
  notice: FilingNotice,
  deps: FilingConsumerDeps,
  log: Logger,
): Promise<ClaimedSend> {
  const webhook = accountDiscordUrl(profile, userId, deps, log.child({ deliveryId }));
  if (!webhook) return Promise.resolve(DONE);
  return sendClaimed(deps.deliveries, message, deliveryId, 'discord', async () => {
    const outcome = await postDiscordMessage(webhook, filingDiscordMessage(notice));
    switch (outcome.kind) {
      case 'sent':
        log.info({ deliveryId }, 'filing Discord message sent');
        return 'sent';
      case 'refused':
        log.warn({ deliveryId, status: outcome.reason }, 'Discord refused the filing message; not retried');
        return 'refused';
      case 'retry':
        log.warn({ deliveryId, reason: outcome.reason }, 'filing Discord message not sent; will retry');
        return { retryAfterMs: outcome.afterMs };
    }
  });
}
