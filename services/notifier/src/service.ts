import type { BlobStore } from '@mimamori/blob-store';
import { type ChatAdapter, type ChatPlatform, type ChatSettingsSource, chatAdapters } from '@mimamori/chat';
import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import { createMetrics, type Logger, type Metrics } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { ServiceModule } from '@mimamori/service-host';
import { createWebhookPoster } from '@mimamori/webhook';
import type { ChatLinkBreaker } from './clients/chat-link-client.ts';
import { countedDeliveries } from './delivery-metrics.ts';
import type { NotificationProfileSource } from './domain/notification-profile.ts';
import { type NotifierClock, systemClock } from './domain/site-quiet-hours.ts';
import { accountMailConsumer } from './events/account-mail-consumer.ts';
import { accountPurgedConsumer } from './events/account-purged.ts';
import { checkResultConsumer } from './events/check-result-consumer.ts';
import { digestRelease } from './events/digest-release.ts';
import { filingConsumer } from './events/filing-consumer.ts';
import { targetNoticeConsumers } from './events/target-notice-consumers.ts';
import { updateConsumer } from './events/update-consumer.ts';
import { createDeliveryStore } from './store/delivery-store.ts';
import { NOTIFIER_SCHEMA, notifierMigrations } from './store/migrations.ts';
import { sweepNotifier } from './store/retention.ts';

export interface UpdateDeliverySetup {
  /** The account service's view of where and how each user is told about updates. */
  profiles: NotificationProfileSource;
  /** Where the before/after pictures of updates are kept. */
  blobs: BlobStore;
  /**
   * Discord itself unless a stand-in is given (tests; the single-process mode's /dev/discord,
   * whose address is known only once it listens, hence a function).
   */
  discordApiBase?: string | (() => string);
  /**
   * `host:port` webhook receivers reached without the SSRF guard's address check
   * (WEBHOOK_EGRESS_ALLOW): tests' local receivers only; empty in the product.
   */
  webhookEgressAllow?: readonly string[];
  /** The single-process product's own /dev/webhooks receiver prefix, on loopback only (docs/channels.md). */
  webhookOwnReceiver?: () => string | null;
  /**
   * The chat platforms (docs/channels.md): their settings (a function where the stand-ins'
   * address comes later) and the account service that breaks a dead link. Without it the
   * account's chat links get nothing.
   */
  chat?: {
    settings: ChatSettingsSource;
    links: ChatLinkBreaker;
    /** IMAGE_LINK_KEY: signs the public picture links LINE and Teams fetch; null without one. */
    imageLinkKey?: Buffer | null;
    /** Tests only: adapters in place of the registry's. */
    adapters?: Record<ChatPlatform, ChatAdapter | undefined>;
  };
}

export interface NotifierDeps {
  db: Db;
  logger: Logger;
  mail: MailTransport;
  /** Opens the link tokens the account service seals into its mail events, and Discord webhooks. */
  secretBox: SecretBox;
  /**
   * The product's address in the browser, for mailed links; read at send time because the
   * single-process mode learns its port only once it listens.
   */
  publicUrl: () => string;
  /**
   * What announcing updates needs; without it the notifier sends the account mails only (a
   * harness that exercises accounts alone).
   */
  updates?: UpdateDeliverySetup;
  /** How long a sending copy of an event holds its delivery; 120 s unless set. */
  deliveryClaimMs?: number;
  /**
   * The product's time for quiet hours: the system's unless a test moves it by hand; the hand-back
   * of held alerts shrinks with MIMAMORI_TIME_SCALE (systemClock(scale)).
   */
  clock?: NotifierClock;
  /** How often held updates are looked at for a digest to send; a minute unless set. */
  digestEveryMs?: number;
  /** The registry /metrics serves; a private one when the process serves none (single-process mode). */
  metrics?: Metrics;
}

const DISCORD = 'https://discord.com';

export function createNotifierService(deps: NotifierDeps): ServiceModule {
  const { db, logger, mail, secretBox, publicUrl, updates } = deps;
  const deliveries = countedDeliveries(
    createDeliveryStore(db, { claimMs: deps.deliveryClaimMs ?? 120_000 }),
    deps.metrics ?? createMetrics({ service: 'notifier' }),
  );
  const webhooks = updates
    ? createWebhookPoster({
        allow: updates.webhookEgressAllow ?? [],
        ownReceiver: updates.webhookOwnReceiver,
      })
    : null;
  const chat = updates?.chat
    ? {
        adapters: updates.chat.adapters ?? chatAdapters(),
        settings: updates.chat.settings,
        links: updates.chat.links,
        imageLinkKey: updates.chat.imageLinkKey ?? null,
      }
    : undefined;
  const clock = deps.clock ?? systemClock();
  const updateConsumers =
    updates && webhooks
      ? [
          ...targetNoticeConsumers(db),
          updateConsumer({
            db,
            deliveries,
            mail,
            secretBox,
            profiles: updates.profiles,
            blobs: updates.blobs,
            discordApiBase: updates.discordApiBase ?? DISCORD,
            webhooks,
            chat,
            publicUrl,
            logger,
            clock,
          }),
          checkResultConsumer({
            db,
            deliveries,
            mail,
            secretBox,
            profiles: updates.profiles,
            discordApiBase: updates.discordApiBase ?? DISCORD,
            publicUrl,
            webhooks,
            chat,
            logger,
            clock,
          }),
          filingConsumer({
            deliveries,
            mail,
            secretBox,
            profiles: updates.profiles,
            discordApiBase: updates.discordApiBase ?? DISCORD,
            webhooks,
            chat,
            logger,
          }),
        ]
      : [];
  return {
    name: 'notifier',
    schema: NOTIFIER_SCHEMA,
    migrations: notifierMigrations,
    streams: [
      streams.accounts,
      ...(updates ? [streams.targets, streams.updates, streams.checkResults, streams.filings] : []),
    ],
    consumers: [
      accountMailConsumer({ deliveries, mail, secretBox, publicUrl, logger }),
      accountPurgedConsumer(db),
      ...updateConsumers,
    ],
    timers:
      updates && webhooks
        ? [
            {
              name: 'quiet hours digests',
              everyMs: deps.digestEveryMs ?? 60_000,
              run: digestRelease({
                db,
                deliveries,
                mail,
                secretBox,
                profiles: updates.profiles,
                discordApiBase: updates.discordApiBase ?? DISCORD,
                publicUrl,
                webhooks,
                logger,
                clock,
                chat,
              }),
            },
          ]
        : [],
    sweep: (keepMs) => sweepNotifier(db, keepMs),
    stop: async () => {
      updates?.profiles.close?.();
      updates?.chat?.links.close?.();
      await webhooks?.close();
      await mail.close();
    },
  };
}
