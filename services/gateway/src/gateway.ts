import fastifyCookie from '@fastify/cookie';
import type { BlobStore } from '@mimamori/blob-store';
import { type ChatAdapter, type ChatPlatform, type ChatSettingsSource, chatAdapters } from '@mimamori/chat';
import { memoryStandInStore, type StandInStore } from '@mimamori/chat-stand-ins';
import type {
  accountV1,
  auditV1,
  billingV1,
  chatLinkV1,
  closureV1,
  diffV1,
  filingsV1,
  invoiceV1,
  securityV1,
  targetV1,
  webhookV1,
  workspaceV1,
} from '@mimamori/contracts';
import type { Mailbox } from '@mimamori/mail';
import { type OperatorDetails, operatorFromEnv } from '@mimamori/operator';
import { type Logger, scaledMs } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { PreviewCrawlers } from './clients/preview-crawlers.ts';
import { accountDataRoutes } from './http/account-data-routes.ts';
import { accountRoutes } from './http/account-routes.ts';
import { Allowance } from './http/allowance.ts';
import { apiAccessRoutes } from './http/api-access-routes.ts';
import { sendApiError } from './http/api-error.ts';
import { auditRoutes } from './http/audit-routes.ts';
import { auditTrail } from './http/audit-trail.ts';
import { authRoutes } from './http/auth-routes.ts';
import { bearerAuthentication } from './http/bearer-token.ts';
import { billingRoutes } from './http/billing-routes.ts';
import { chatLinkRoutes } from './http/chat-link-routes.ts';
import { type ChatStandInSetup, chatStandInRoutes } from './http/chat-stand-in-routes.ts';
import { csrfProtection } from './http/csrf.ts';
import { discordStandInRoutes } from './http/discord-stand-in-routes.ts';
import { feedRoutes, feedsNeedToken } from './http/feed-routes.ts';
import { filingsRoutes } from './http/filings-routes.ts';
import { healthRoutes } from './http/health-routes.ts';
import { historyRoutes } from './http/history-routes.ts';
import { imageLinkRoutes } from './http/image-link-routes.ts';
import { invoiceRoutes } from './http/invoice-routes.ts';
import { mailboxRoutes } from './http/mailbox-routes.ts';
import { openApiRoutes } from './http/openapi-routes.ts';
import { operatorRoutes } from './http/operator-routes.ts';
import { previewRoutes } from './http/preview-routes.ts';
import { quietHoursRoutes } from './http/quiet-hours-routes.ts';
import { roleGuard } from './http/route-roles.ts';
import { type RouteEntry, recordRoutes } from './http/route-table.ts';
import { securityRoutes } from './http/security-routes.ts';
import { spaRoutes } from './http/spa-routes.ts';
import { supportRoutes } from './http/support-routes.ts';
import { targetRoutes } from './http/target-routes.ts';
import { timezoneRoutes } from './http/timezone-routes.ts';
import { userInfoRoutes } from './http/user-info-routes.ts';
import { suggestedReceiverUrl, webhookReceiverRoutes } from './http/webhook-receiver-routes.ts';
import { webhookRoutes } from './http/webhook-routes.ts';
import { workspaceRoutes } from './http/workspace-routes.ts';
import { xSignInRoutes } from './http/x-sign-in-routes.ts';

export interface GatewayDeps {
  logger: Logger;
  account: accountV1.AccountServiceClient;
  /** The account service's signed webhooks; the /api/webhooks routes exist only with it. */
  webhooks?: webhookV1.WebhookServiceClient | undefined;
  /** The account service's workspaces, members and invitations; their routes exist only with it. */
  workspaces?: workspaceV1.WorkspaceServiceClient | undefined;
  /** The account service's chat links; the chat link routes and /hooks/<platform> exist only with it. */
  chatLinks?: chatLinkV1.ChatLinkServiceClient | undefined;
  /** The chat platforms' settings (chatSettingsFromEnv), for their inbound callbacks and OAuth. */
  chat?:
    | { settings: ChatSettingsSource; adapters?: Record<ChatPlatform, ChatAdapter | undefined> }
    | undefined;
  /** The single-process mode on loopback only: the chat platforms' stand-ins under /dev/<platform>. */
  chatStandIns?: Omit<ChatStandInSetup, 'store'> | undefined;
  /** The account service's billing (docs/billing.md); the billing routes exist only with it. */
  billing?: billingV1.BillingServiceClient | undefined;
  /** The account service's receipts (docs/billing.md#receipts); the invoice routes exist only with it. */
  invoices?: invoiceV1.InvoiceServiceClient | undefined;
  /**
   * The account service's audit log (ADR 0036): with it, every route that changes something
   * records what it did once it succeeded, and /api/audit serves the log.
   */
  audit?: auditV1.AuditServiceClient | undefined;
  /** The account service's closing of an account; the delete route exists only with it. */
  closure?: closureV1.AccountClosureServiceClient | undefined;
  /** The account service's two-factor sign-in, passkeys and session list; their routes exist only with it. */
  security?: securityV1.SecurityServiceClient | undefined;
  /** Stripe's publishable key for the browser's Payment Element; the test card form without it. */
  stripePublishableKey?: string | undefined;
  /** The crawler's wizard preview; the /api/preview routes exist only with it. */
  preview?: PreviewCrawlers | undefined;
  /** SECRET_KEYS, to seal what the wizard sends the crawler in secret (a login's typed texts). */
  secretBox?: SecretBox | undefined;
  /** The target service; the site routes (/api/v2/targets, /api/pause, …) exist only with it. */
  target?: targetV1.TargetServiceClient | undefined;
  /**
   * The diff service's history and the blob store holding its pictures; with the target service,
   * the site-detail routes (/api/v2/history, /api/v2/screenshot, …) exist.
   */
  history?: { client: diffV1.HistoryServiceClient; blobs: BlobStore } | undefined;
  /**
   * The filings service: follows (user_info's tdedinets and cik_isins) and the dashboard's
   * filings paths, which answer 503 filings_unavailable without it.
   */
  filings?: filingsV1.FilingsServiceClient | undefined;
  /**
   * IMAGE_LINK_KEY: with the history's blob store, `/i/<token>` serves updates' pictures to the
   * chat platforms that take images only as URLs (docs/channels.md#images).
   */
  imageLinkKey?: Buffer | undefined;
  /** The built SPA; served with a history-mode fallback when given. */
  webDistDir?: string | undefined;
  /** How many times faster the product's minutes pass (1 unless set; more only in test runs). */
  timeScale?: number | undefined;
  /** The local mailbox of the single-process mode, browsable under /dev/mailbox. */
  mailbox?: Mailbox | undefined;
  /**
   * The single-process mode listening on loopback only: Discord messages are kept and shown
   * under /dev/discord instead of being posted to Discord.
   */
  discordStandIn?: boolean;
  /**
   * Where the loopback stand-ins keep what they received; the single-process product's is in its
   * data folder, so /dev/<platform> survives a restart. In memory when unset.
   */
  standInStore?: StandInStore | undefined;
  /**
   * The single-process mode listening on loopback only, with its own address once it listens:
   * /dev/webhooks receives webhooks to try them with, and GET /api/webhooks suggests its receiver
   * (the account and notifier let exactly those URLs through the SSRF guard).
   */
  webhookReceiver?: { productUrl: () => string } | undefined;
  /** The product's address in the browser (for OAuth redirect URIs); the request's host when unset. */
  publicUrl?: string | undefined;
  /**
   * Proxies whose X-Forwarded-For is believed: true for any, or their addresses/CIDRs. None when
   * unset, as in single-process mode, which nothing stands in front of.
   */
  trustProxy?: boolean | string | undefined;
  /**
   * The seller's legal details (OPERATOR_* validated at start, @mimamori/operator); the marked
   * sample details when not given (tests, a gateway built without configuration).
   */
  operator?: OperatorDetails | undefined;
  isShuttingDown(): boolean;
}

export interface Gateway {
  app: FastifyInstance;
  /** Every registered route (method and pattern), for the tests that walk the route table. */
  routes: readonly RouteEntry[];
  listen(address: { host: string; port: number }): Promise<string>;
  close(): Promise<void>;
}

export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Per-request lines would drown the service's own; failures are logged where they happen.
    logController: new LogController({ disableRequestLogging: true }),
    // Idle keep-alive sockets would otherwise hold close() open after in-flight requests end.
    forceCloseConnections: 'idle',
    trustProxy: deps.trustProxy ?? false,
    // A picture link's token (/i/<token>) names a site and a blob key and is signed: ~200
    // characters, past the router's default of 100 for one path segment.
    routerOptions: { maxParamLength: 1_024 },
  });
  const routes = recordRoutes(app);
  await app.register(fastifyCookie);
  // 120 requests at once, then 5 a second, per token: a script's pace, never a scrape.
  bearerAuthentication(app, { account: deps.account, allowance: new Allowance(120, 5) });
  csrfProtection(app);
  if (deps.audit) {
    auditTrail(app, {
      audit: deps.audit,
      account: deps.account,
      target: deps.target,
      chatLinks: deps.chatLinks,
      webhooks: deps.webhooks,
    });
  }
  roleGuard(app, deps);
  healthRoutes(app, deps);
  await openApiRoutes(app);
  userInfoRoutes(app, deps);
  // 20 searches at once, then one every 3 s: typing a few names, never a scan of the directory.
  filingsRoutes(app, {
    account: deps.account,
    filings: deps.filings,
    searches: new Allowance(20, 1 / 3),
  });
  authRoutes(app, deps);
  accountRoutes(app, deps);
  apiAccessRoutes(app, deps);
  if (deps.audit) auditRoutes(app, { audit: deps.audit });
  quietHoursRoutes(app, deps);
  if (deps.security) securityRoutes(app, { security: deps.security, publicUrl: deps.publicUrl });
  if (deps.webhooks) {
    const receiver = deps.webhookReceiver;
    webhookRoutes(app, {
      account: deps.account,
      webhooks: deps.webhooks,
      target: deps.target,
      tryUrl: receiver
        ? () => (receiver.productUrl() ? suggestedReceiverUrl(receiver.productUrl()) : null)
        : undefined,
    });
  }
  if (deps.chatLinks) {
    chatLinkRoutes(app, {
      account: deps.account,
      chatLinks: deps.chatLinks,
      target: deps.target,
      adapters: deps.chat?.adapters ?? chatAdapters(),
      settings: deps.chat?.settings ?? {},
      publicUrl: deps.publicUrl,
    });
  }
  if (deps.workspaces) workspaceRoutes(app, { workspaces: deps.workspaces });
  supportRoutes(app, deps);
  xSignInRoutes(app, deps);
  timezoneRoutes(app);
  if (deps.invoices) invoiceRoutes(app, { invoices: deps.invoices });
  accountDataRoutes(app, deps);
  operatorRoutes(app, deps.operator ?? operatorFromEnv({}, { required: false }));
  if (deps.billing) {
    billingRoutes(app, {
      account: deps.account,
      billing: deps.billing,
      stripePublishableKey: deps.stripePublishableKey,
    });
  }
  if (deps.preview) {
    previewRoutes(app, { account: deps.account, preview: deps.preview, secretBox: deps.secretBox });
  }
  if (deps.target) targetRoutes(app, { account: deps.account, target: deps.target });
  if (deps.target && deps.history) {
    historyRoutes(app, {
      account: deps.account,
      target: deps.target,
      history: deps.history.client,
      blobs: deps.history.blobs,
    });
  }
  feedsNeedToken(app);
  if (deps.target && deps.history) {
    // A reader polls every few minutes; 30 at once, then one every 2 s, per feed token.
    feedRoutes(app, {
      account: deps.account,
      target: deps.target,
      history: deps.history.client,
      blobs: deps.history.blobs,
      publicUrl: deps.publicUrl,
      allowance: new Allowance(30, 0.5),
    });
  }
  if (deps.imageLinkKey && deps.history) {
    // A platform fetches a picture a few times (each server, each later opening): 30 at once,
    // then one every 2 s, per link.
    imageLinkRoutes(app, {
      key: deps.imageLinkKey,
      blobs: deps.history.blobs,
      allowance: new Allowance(30, 0.5),
    });
  }
  if (deps.mailbox) mailboxRoutes(app, deps.mailbox);
  const standInStore = deps.standInStore ?? memoryStandInStore();
  if (deps.discordStandIn) discordStandInRoutes(app, standInStore);
  if (deps.webhookReceiver) {
    webhookReceiverRoutes(app, { store: standInStore, productUrl: deps.webhookReceiver.productUrl });
  }
  if (deps.chatStandIns) chatStandInRoutes(app, { ...deps.chatStandIns, store: standInStore });
  if (deps.webDistDir) {
    await spaRoutes(app, deps.webDistDir, { minuteMs: scaledMs(60_000, deps.timeScale ?? 1) });
  }
  app.setNotFoundHandler((_request, reply) => sendApiError(reply, 404, 'not_found'));
  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) return sendApiError(reply, status, 'bad_request');
    request.log.error({ err: error }, 'request failed');
    return sendApiError(reply, 500, 'internal');
  });
  return {
    app,
    routes,
    async listen(address) {
      await app.listen(address);
      const bound = app.server.address();
      const port = typeof bound === 'object' && bound ? bound.port : address.port;
      return `http://${address.host === '0.0.0.0' ? '127.0.0.1' : address.host}:${port}/`;
    },
    close: () => app.close(),
  };
}
