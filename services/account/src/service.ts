import { createHash, randomInt, randomUUID } from 'node:crypto';
import { outboxMigration, processedEventsMigration } from '@mimamori/bus';
import {
  type ChatAdapter,
  type ChatPlatform,
  type ChatSettingsSource,
  chatAdapters,
  readChatSettings,
} from '@mimamori/chat';
import {
  accountV1,
  auditV1,
  billingV1,
  chatLinkV1,
  closureV1,
  invoiceV1,
  securityV1,
  webhookV1,
  workspaceV1,
} from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import { operatorFromEnv } from '@mimamori/operator';
import {
  type AddonPrices,
  auditRetentionDays,
  billingCatalogue,
  type CatalogueProduct,
  type Currency,
  linesAmount,
  PLANS,
  type PlanPrices,
  subscriptionLines,
} from '@mimamori/plans';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { ServiceModule } from '@mimamori/service-host';
import { createWebhookPoster, newWebhookSecret } from '@mimamori/webhook';
import { hash, verify } from '@node-rs/argon2';
import { startAccountSweeper } from './account-sweeper.ts';
import { postDiscordMessage } from './clients/discord-client.ts';
import { recordSystemEntry } from './domain/audit-log.ts';
import { billingActions } from './domain/billing/billing-actions.ts';
import type { BillingProvider } from './domain/billing/billing-ports.ts';
import type { PlanChoice } from './domain/billing/billing-record.ts';
import { type Clock, systemClock } from './domain/clock.ts';
import { PURGE_GRACE_DAYS } from './domain/closure/account-closure.ts';
import { testMessage } from './domain/discord-link.ts';
import type { InvoiceIssuer } from './domain/invoices/invoice.ts';
import { invoiceActions } from './domain/invoices/invoice-actions.ts';
import type { InvoiceProvider } from './domain/invoices/invoice-ports.ts';
import type { XOAuthConfig } from './domain/x-sign-in.ts';
import { billingCancelConsumer, billingSignUpConsumer } from './events/billing-consumer.ts';
import { targetUsageConsumer } from './events/site-usage-consumer.ts';
import { targetDeletedConsumer } from './events/target-deleted-consumer.ts';
import { accountServer } from './grpc/account-server.ts';
import { auditServer } from './grpc/audit-server.ts';
import { billingServer } from './grpc/billing-server.ts';
import { chatLinkServer } from './grpc/chat-link-server.ts';
import { closureServer } from './grpc/closure-server.ts';
import { invoiceServer } from './grpc/invoice-server.ts';
import { securityServer } from './grpc/security-server.ts';
import { webhookServer } from './grpc/webhook-server.ts';
import { workAfterAnswer } from './grpc/work-after-answer.ts';
import { workspaceServer } from './grpc/workspace-server.ts';
import { receiptPdfRenderer } from './receipts/receipt-pdf.ts';
import { createAccountStore } from './store/account-store.ts';
import { createAuditStore } from './store/audit-store.ts';
import { createBillingStore } from './store/billing-store.ts';
import { createChatLinkStore } from './store/chat-link-store.ts';
import { createClosureStore } from './store/closure-store.ts';
import { createExpiredRowsStore } from './store/expired-rows-store.ts';
import { createInvoiceStore } from './store/invoice-store.ts';
import { ACCOUNT_SCHEMA, accountMigrations } from './store/migrations.ts';
import { createSecurityStore } from './store/security-store.ts';
import { createTrialStore } from './store/trial-store.ts';
import { createWebhookStore } from './store/webhook-store.ts';
import { createWorkspaceStore } from './store/workspace-store.ts';

export interface AccountServiceOptions {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  clock?: Clock;
  prices?: PlanPrices;
  /** Custom-plan add-on prices, shown with the plans (ADDON_PRICES). */
  addonPrices?: AddonPrices;
  /** Hold after a trial ends before auto-cancel; 30 days unless set. */
  trialGraceMs?: number;
  /** A deleted account's data is kept this long, then erased everywhere; 30 days unless set. */
  purgeGraceMs?: number;
  sweepIntervalMs?: number;
  /** Discord unless a stand-in is given; a function where the stand-in's address comes later. */
  discordApiBase?: string | (() => string);
  xOAuth?: XOAuthConfig | null;
  /** Billing on Stripe (or its stand-in); without it signup starts only the product's own trial. */
  billing?: { provider: BillingProvider; renewalGraceMs: number; invoices?: InvoiceProvider } | null;
  /** Who issues the receipts (the operator's details, @mimamori/operator); its marked samples unless given. */
  issuer?: InvoiceIssuer;
  /** The CJK font receipts are drawn with (RECEIPT_FONT_PATH); Debian's Noto Sans CJK unless given. */
  receiptFontPath?: string;
  /**
   * `host:port` webhook receivers reached without the SSRF guard's address check
   * (WEBHOOK_EGRESS_ALLOW): tests' local receivers only; empty in the product.
   */
  webhookEgressAllow?: readonly string[];
  /**
   * The single-process product's own receiver prefix (`<origin>/dev/webhooks/in/`) when it listens
   * on loopback only: URLs of one receiver under it may be added and tested (docs/channels.md).
   */
  webhookOwnReceiver?: () => string | null;
  /** The chat platforms' settings (chatSettingsFromEnv); a function where the stand-ins' address comes later. */
  chatSettings?: ChatSettingsSource;
  /** Tests only: adapters in place of the registry's. */
  chatAdapters?: Record<ChatPlatform, ChatAdapter | undefined>;
}

/** Letters and digits no one misreads (no 0/O, 1/I/L): a LINE user may type the code. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 12 characters of 31: about 59 bits, against guesses sent within a code's 15 minutes. */
const CODE_LENGTH = 12;
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

const DAY_MS = 86_400_000;

/**
 * The payment provider's notices the audit log keeps: money taken or refused and the subscription
 * changed or ended. The bookkeeping around them (an invoice made, finalised) would bury them.
 */
const NOTABLE_PROVIDER_EVENTS = new Set([
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
]);

export function createAccountService(options: AccountServiceOptions): ServiceModule {
  const { db, logger, secretBox } = options;
  const clock = options.clock ?? systemClock;
  const accounts = createAccountStore(db, secretBox);
  const trialGraceMs = options.trialGraceMs ?? 30 * DAY_MS;
  const audit = createAuditStore(db);
  const billing = options.billing
    ? billingActions({
        provider: options.billing.provider,
        store: createBillingStore(db, {
          trialGraceMs,
          now: () => clock.now(),
          priceOf: choicePriceOf(billingCatalogue(options.prices ?? {}, options.addonPrices ?? {})),
        }),
        clock,
        renewalGraceMs: options.billing.renewalGraceMs,
        applied: async (userId, eventType) => {
          if (!NOTABLE_PROVIDER_EVENTS.has(eventType)) return;
          await recordSystemEntry({ audit, clock }, userId, {
            action: 'billing.provider_event',
            actorLabel: 'Stripe',
            details: { event: eventType },
          });
        },
      })
    : null;
  const closure = createClosureStore(db);
  const purgeGraceMs = options.purgeGraceMs ?? PURGE_GRACE_DAYS * DAY_MS;
  const passwords = {
    // @node-rs/argon2 hashes with argon2id unless told otherwise.
    hash: (password: string) => hash(password),
    verify: (digest: string, password: string) => verify(digest, password),
  };
  // Each plan's audit log retention, handed to the one database function that may delete entries.
  const auditRetention = Object.fromEntries(
    Object.keys(PLANS).map((plan) => [plan, auditRetentionDays(Number(plan))]),
  );
  const sweeper = startAccountSweeper({
    trials: createTrialStore(db),
    expired: createExpiredRowsStore(db),
    clock,
    graceMs: trialGraceMs,
    holds: billing ? () => billing.sweepHolds() : null,
    purges: () => closure.purgeDue(clock.now()),
    auditLog: () => audit.sweepAuditEntries(auditRetention, auditRetentionDays(0), clock.now()),
    intervalMs: options.sweepIntervalMs ?? 60_000,
    logger,
  });
  const invoices = invoiceActions({
    accounts,
    clock,
    provider: options.billing?.invoices ?? null,
    store: createInvoiceStore(db),
    issuer: options.issuer ?? operatorFromEnv({}),
    // Checked at start where there are invoices to draw: a missing font fails the start, not a download.
    render: options.billing?.invoices
      ? receiptPdfRenderer(options.receiptFontPath)
      : () => Promise.reject(new Error('no invoices without billing')),
  });
  const afterAnswer = workAfterAnswer(logger);
  const webhooks = createWebhookStore(db);
  const webhookPoster = createWebhookPoster({
    allow: options.webhookEgressAllow ?? [],
    ownReceiver: options.webhookOwnReceiver,
  });
  const webhookContext = (userId: string, id: string) => `account:${userId}:webhook:${id}`;
  const chatLinks = createChatLinkStore(db, secretBox);
  const chatLinkContext = (userId: string, id: string) => `account:${userId}:chat_link:${id}`;
  const adapters = options.chatAdapters ?? chatAdapters();
  const totpContext = (userId: string) => `account:${userId}:totp`;
  const securityDeps = {
    accounts,
    clock,
    passwords,
    newId: randomUUID,
    security: createSecurityStore(db),
    sealTotp: (secret: string, userId: string) => secretBox.seal(secret, totpContext(userId)),
    openTotp: (sealed: string, userId: string) => secretBox.open(sealed, totpContext(userId)),
  };
  const workspaces = createWorkspaceStore(db, secretBox);
  const implementation = accountServer({
    ...securityDeps,
    workspaces,
    logger,
    prices: options.prices ?? {},
    discord: {
      // Read at each link, for the single-process mode's stand-in (its port comes with listening).
      get discordApiBase() {
        const base = options.discordApiBase ?? 'https://discord.com';
        return typeof base === 'function' ? base() : base;
      },
      seal: (url, userId) => secretBox.seal(url, `account:${userId}:discord_webhook`),
      sendTestMessage: (url, lang) => postDiscordMessage(url, testMessage(lang)),
    },
    xOAuth: options.xOAuth ?? null,
    afterAnswer,
    webhooks,
    chatLinks,
  });
  return {
    name: 'account',
    schema: ACCOUNT_SCHEMA,
    migrations: [
      ...accountMigrations,
      outboxMigration(ACCOUNT_SCHEMA),
      processedEventsMigration(ACCOUNT_SCHEMA),
    ],
    // TARGETS: usage reports of the user's sites (used_num).
    streams: [streams.accounts, streams.targets],
    consumers: [
      targetUsageConsumer(db),
      targetDeletedConsumer(db),
      ...(billing ? [billingSignUpConsumer(billing), billingCancelConsumer(billing)] : []),
    ],
    outbox: true,
    grpc: [
      { definition: accountV1.AccountServiceService, implementation },
      { definition: securityV1.SecurityServiceService, implementation: securityServer(securityDeps) },
      {
        definition: workspaceV1.WorkspaceServiceService,
        implementation: workspaceServer({
          accounts,
          clock,
          newId: randomUUID,
          workspaces,
        }),
      },
      {
        definition: webhookV1.WebhookServiceService,
        implementation: webhookServer({
          webhooks,
          accounts,
          clock,
          newId: randomUUID,
          outside: {
            refusal: (url) => webhookPoster.refusal(url),
            newSecret: newWebhookSecret,
            seal: (secret, userId, id) => secretBox.seal(secret, webhookContext(userId, id)),
            open: (sealed, userId, id) => secretBox.open(sealed, webhookContext(userId, id)),
            post: (url, body, secret) => webhookPoster.post(url, body, secret),
          },
        }),
      },
      {
        definition: chatLinkV1.ChatLinkServiceService,
        implementation: chatLinkServer({
          chatLinks,
          accounts,
          clock,
          newId: randomUUID,
          chat: {
            adapters,
            // Read at each use, for the single-process mode's stand-ins (their port comes with listening).
            get settings() {
              return readChatSettings(options.chatSettings);
            },
            seal: (credentials, userId, id) => secretBox.seal(credentials, chatLinkContext(userId, id)),
            open: (sealed, userId, id) => secretBox.open(sealed, chatLinkContext(userId, id)),
            digest: (platform, key, value) => sha256(`${platform}:${key}=${value}`),
            newCode: () =>
              Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join(
                '',
              ),
            hashCode: sha256,
          },
        }),
      },
      {
        definition: billingV1.BillingServiceService,
        implementation: billingServer(
          billing,
          { accounts, clock },
          { plans: options.prices ?? {}, addons: options.addonPrices ?? {} },
        ),
      },
      {
        definition: closureV1.AccountClosureServiceService,
        implementation: closureServer({ accounts, clock, passwords, closure, purgeGraceMs }),
      },
      {
        definition: auditV1.AuditServiceService,
        implementation: auditServer({ accounts, audit, clock }),
      },
      {
        definition: invoiceV1.InvoiceServiceService,
        implementation: invoiceServer(invoices, { accounts, clock }),
      },
    ],
    stop: async () => {
      await sweeper.stop();
      await afterAnswer.settled();
      await webhookPoster.close();
    },
  };
}

/** A plan choice's price per cycle at the configured prices; null when it is not sold. */
function choicePriceOf(catalogue: CatalogueProduct[]) {
  return (choice: PlanChoice, currency: Currency): number | null => {
    try {
      return linesAmount(catalogue, subscriptionLines(choice.plan, choice.options, choice.cycle, currency));
    } catch {
      // Options the catalogue does not know (a record older than the catalogue): no price to state.
      return null;
    }
  };
}
