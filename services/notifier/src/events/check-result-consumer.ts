import { type BusMessage, type CatalogEntry, exponentialRetryDelay, type RetryDelay } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { checkCompleted } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import { isQuiet, quietEnds } from '@mimamori/quiet-hours';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import { alertDue, DEFAULT_ALERT_AFTER, failureKindOf, silenceDue } from '@mimamori/watch-engine';
import type { WebhookPoster } from '@mimamori/webhook';
import { postDiscordMessage } from '../clients/discord-webhook-client.ts';
import { chatLinksForSite } from '../domain/chat-links.ts';
import { failureChatMessage } from '../domain/chat-message.ts';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import {
  type FailureNotice,
  failureDiscordMessage,
  failureMailContent,
} from '../domain/failure-alert-content.ts';
import type { NotificationProfile, NotificationProfileSource } from '../domain/notification-profile.ts';
import { type NotifierClock, siteQuietHours } from '../domain/site-quiet-hours.ts';
import type { TargetNotice } from '../domain/target-notice.ts';
import { failureWebhookPayload, webhooksFor } from '../domain/webhook-payload.ts';
import { readerZone } from '../domain/written-time.ts';
import { readCheckStanding } from '../store/check-standing-store.ts';
import { countOutcome, markAlerted, markRecoveryTold } from '../store/error-streak-store.ts';
import { countForSilence, markSilenceTold } from '../store/silence-store.ts';
import { type ChatSetup, sendChat } from './chat-send.ts';
import { type ClaimedSend, sendClaimed } from './claimed-send.ts';
import { historyUrl, mailRecipients, siteDiscordUrl } from './site-channels.ts';
import { sendWebhook } from './webhook-send.ts';

export interface CheckResultConsumerDeps {
  db: Db;
  deliveries: DeliveryLedger;
  mail: MailTransport;
  secretBox: SecretBox;
  profiles: NotificationProfileSource;
  discordApiBase: string | (() => string);
  publicUrl: () => string;
  /** Posts the alerts to the account's signed webhooks through the SSRF guard. */
  webhooks: Pick<WebhookPoster, 'post'>;
  /** The chat platforms the site's chat links are on. */
  chat?: ChatSetup | undefined;
  logger: Logger;
  /** When quiet hours hold (docs/product.md#quiet-hours). */
  clock: NotifierClock;
  retryDelay?: RetryDelay;
}

/** How many times JetStream hands a result over; the last failed try ends a delivery as failed. */
const MAX_DELIVER = 20;

/**
 * Failure alerts with recovery (docs/product.md#failure-alerts): counts each site's failed checks
 * by kind in due-time order; when a kind reaches the site's count, each of the site's channels
 * gets one alert for the run (`failure:<target>:<run start>:<channel>`), and the first success
 * after an alerted run one "working again" message (`recovered:<target>:<run start>:<channel>`).
 * Deliveries are named after the run, so a redelivered result sends nothing twice; the run is
 * marked told only once every channel is done. The account's webhooks for the site are channels
 * too (`…:webhook:<webhook id>`, docs/webhooks.md), and so are its chat links (`…:chat:<link id>`). A check that worked also counts for the silence
 * alert (docs/product.md#silence-alerts): when the site's days have passed since its last update
 * (or its first check), by the check's own time, each channel hears once for that quiet spell
 * (`silence:<target>:<spell start>:<channel>`).
 */
export function checkResultConsumer(deps: CheckResultConsumerDeps): CatalogEntry {
  const retryDelay = deps.retryDelay ?? exponentialRetryDelay;
  return {
    stream: checkCompleted.stream,
    durable: 'notifier-checks-completed',
    subject: checkCompleted.subject,
    maxDeliver: MAX_DELIVER,
    ackWaitMs: deps.deliveries.claimMs,
    concurrency: 8,
    async handler(message) {
      const result = checkCompleted.decode(message.data);
      const completedAt = result.completedAt ?? new Date();
      const dueAt = result.dueAt ?? completedAt;
      const failure =
        result.outcome === 'error'
          ? { kind: failureKindOf(result.errorCode, result.errorDetail), areaId: result.errorAreaId }
          : null;
      // One read answers a check that changes nothing; only a change is counted under a lock.
      const standing = await readCheckStanding(deps.db, result.targetId);
      const streak = await countOutcome(
        deps.db,
        result.targetId,
        { dueAt, completedAt, failure },
        standing.streak,
      );
      const notice = standing.notice;
      if (notice === 'deleted') return;
      // Before the site's notice arrives its count is not known yet: the default decides, and the
      // event waits for the notice below.
      const alertAfter = notice ? notice.failureAlertAfter : DEFAULT_ALERT_AFTER;
      const alert = alertDue(streak, alertAfter) ? streak : null;
      // A check that worked counts for the silence alert; one that failed says nothing of the page.
      const watch =
        result.outcome === 'error' || !notice
          ? null
          : await countForSilence(
              deps.db,
              result.targetId,
              { completedAt, changed: result.outcome === 'update' },
              standing.silence,
            );
      const silence = watch && silenceDue(watch, notice?.silenceAlertDays ?? 0, completedAt) ? watch : null;
      if (!alert && !streak.recoveredRun && !silence) return;
      // The site's targets.* event is not in yet (streams are read independently): wait for it.
      if (!notice) throw new Error(`no notice yet for target ${result.targetId}`);
      const profile = await deps.profiles.read(result.userId);
      if (!profile) return;
      const log = deps.logger.child({ targetId: result.targetId });
      // Unless alerts break through, the result comes back when the site's quiet hours end and
      // its alerts go out right after (docs/product.md#quiet-hours).
      const quiet = siteQuietHours(notice, profile);
      const now = deps.clock.now();
      const zone = readerZone(profile.timezone, profile.lang);
      if (!quiet.alertsBreakThrough && isQuiet(quiet, now, zone)) {
        const waitMs = quietEnds(quiet, now, zone).getTime() - now.getTime();
        log.info({ waitMs }, 'alert held until the quiet hours end');
        message.nak(deps.clock.realMs(waitMs));
        return;
      }
      const base = {
        lang: profile.lang,
        timezone: profile.timezone,
        label: notice.label,
        url: notice.url,
        historyUrl: historyUrl(deps.publicUrl(), notice),
      };
      const pending: ClaimedSend[] = [];
      if (alert?.startedAt && alert.lastKind) {
        const run = alert.startedAt;
        const content: FailureNotice = {
          ...base,
          failure: {
            kind: alert.lastKind,
            areaId: alert.lastAreaId,
            areaName: notice.areaLabels[alert.lastAreaId] || alert.lastAreaId,
            count: alert.counts[alert.lastKind] ?? 0,
            since: alert.failedSince ?? run,
          },
        };
        const sent = await onChannels(`failure:${result.targetId}:${run.toISOString()}`, content);
        if (sent.every((attempt) => !attempt.retry)) await markAlerted(deps.db, result.targetId, run);
        pending.push(...sent);
      }
      if (streak.recoveredRun) {
        const run = streak.recoveredRun;
        const content: FailureNotice = {
          ...base,
          recovered: {
            since: streak.failedSince ?? run,
            at: streak.recoveredAt ?? streak.lastDueAt ?? dueAt,
          },
        };
        const sent = await onChannels(`recovered:${result.targetId}:${run.toISOString()}`, content);
        if (sent.every((attempt) => !attempt.retry)) await markRecoveryTold(deps.db, result.targetId, run);
        pending.push(...sent);
      }
      if (silence && notice.silenceAlertDays > 0) {
        const since = silence.lastChangeAt;
        const content: FailureNotice = { ...base, silent: { days: notice.silenceAlertDays, since } };
        const sent = await onChannels(`silence:${result.targetId}:${since.toISOString()}`, content);
        if (sent.every((attempt) => !attempt.retry)) await markSilenceTold(deps.db, result.targetId, since);
        pending.push(...sent);
      }
      const retries = pending.filter((attempt) => attempt.retry);
      if (retries.length > 0) {
        message.nak(
          Math.max(...retries.map((attempt) => attempt.afterMs ?? retryDelay(message.deliveryCount))),
        );
      }

      function onChannels(id: string, content: FailureNotice): Promise<ClaimedSend[]> {
        // The same bytes for every URL of this copy; only the signature's time changes on a retry.
        let body: string | undefined;
        return Promise.all([
          byMail(
            `${id}:email`,
            message,
            notice as TargetNotice,
            profile as NotificationProfile,
            content,
            log,
          ),
          byDiscord(
            `${id}:discord`,
            message,
            notice as TargetNotice,
            profile as NotificationProfile,
            content,
            log,
          ),
          ...webhooksFor((profile as NotificationProfile).webhooks, result.targetId).map((webhook) =>
            sendWebhook(
              `${id}:webhook:${webhook.id}`,
              message,
              { ...webhook, userId: result.userId },
              () => (body ??= failureWebhookPayload(id, result.targetId, content)),
              deps,
              log,
              message.deliveryCount >= MAX_DELIVER,
            ),
          ),
          ...chatLinksForSite((profile as NotificationProfile).chatLinks, notice as TargetNotice).map(
            (link) =>
              sendChat(
                `${id}:chat:${link.id}`,
                message,
                { ...link, userId: result.userId },
                async () => failureChatMessage(content),
                deps,
                log,
                message.deliveryCount >= MAX_DELIVER,
              ),
          ),
        ]);
      }
    },
  };

  async function byMail(
    deliveryId: string,
    message: BusMessage,
    notice: TargetNotice,
    profile: NotificationProfile,
    content: FailureNotice,
    log: Logger,
  ): Promise<ClaimedSend> {
    const to = mailRecipients(notice, profile);
    if (to.length === 0) return { retry: false };
    return sendClaimed(deps.deliveries, message, deliveryId, 'email', async () => {
      try {
        await deps.mail.send({ to, ...failureMailContent(content) });
      } catch (error) {
        log.warn({ err: error, deliveryId }, 'failure mail not sent; will retry');
        return { retryAfterMs: null };
      }
      log.info({ deliveryId, recipients: to.length }, 'failure mail sent');
      return 'sent';
    });
  }

  async function byDiscord(
    deliveryId: string,
    message: BusMessage,
    notice: TargetNotice,
    profile: NotificationProfile,
    content: FailureNotice,
    log: Logger,
  ): Promise<ClaimedSend> {
    const webhook = siteDiscordUrl(notice, profile, deps, log.child({ deliveryId }));
    if (!webhook) return { retry: false };
    return sendClaimed(deps.deliveries, message, deliveryId, 'discord', async () => {
      const outcome = await postDiscordMessage(webhook, failureDiscordMessage(content));
      switch (outcome.kind) {
        case 'sent':
          log.info({ deliveryId }, 'failure Discord message sent');
          return 'sent';
        case 'refused':
          log.warn({ deliveryId, status: outcome.reason }, 'Discord refused the message; not retried');
          return 'refused';
        case 'retry':
          log.warn({ deliveryId, reason: outcome.reason }, 'failure Discord message not sent; will retry');
          return { retryAfterMs: outcome.afterMs };
      }
    });
  }
}
