import { chatSettingsFromEnv } from '@mimamori/chat';
import { operatorFromEnv } from '@mimamori/operator';
import { createSecretBox } from '@mimamori/secret-box';
import { runStatelessProcess } from '@mimamori/service-host';
import { connectServices } from './clients/service-clients.ts';
import { gatewayEnv } from './config.ts';
import { createGatewayService } from './service.ts';

// The legal pages name the seller: a production run refuses to start without every detail, with a
// message naming each missing or invalid variable (OperatorConfigError), before anything else.
const operator = operatorFromEnv(process.env);

await runStatelessProcess('gateway', gatewayEnv, async ({ config, logger, isShuttingDown }) => {
  const clients = await connectServices({
    account: config.ACCOUNT_GRPC_ADDR,
    crawler: config.CRAWLER_GRPC_ADDR,
    target: config.TARGET_GRPC_ADDR,
    diff: config.DIFF_GRPC_ADDR,
    filings: config.FILINGS_GRPC_ADDR,
    blobUrl:
      config.BLOB_URL ??
      `${config.NATS_URL.replace(/\/+$/, '')}/${config.BUS_NAMESPACE ? `${config.BUS_NAMESPACE}_` : ''}mimamori_blobs`,
  });
  return createGatewayService({
    logger,
    account: clients.account,
    webhooks: clients.webhooks,
    chatLinks: clients.chatLinks,
    workspaces: clients.workspaces,
    chat: { settings: chatSettingsFromEnv(config) },
    billing: clients.billing,
    invoices: clients.invoices,
    closure: clients.closure,
    audit: clients.audit,
    security: clients.security,
    stripePublishableKey: config.STRIPE_PUBLISHABLE_KEY || undefined,
    preview: clients.preview,
    secretBox: config.SECRET_KEYS ? createSecretBox(config.SECRET_KEYS) : undefined,
    target: clients.target,
    history: clients.history,
    filings: clients.filings,
    webDistDir: config.WEB_DIST_DIR,
    timeScale: config.MIMAMORI_TIME_SCALE,
    publicUrl: config.PUBLIC_URL,
    imageLinkKey: config.IMAGE_LINK_KEY,
    trustProxy: config.TRUST_PROXY === 'true' ? true : config.TRUST_PROXY || false,
    operator,
    isShuttingDown,
    listen: { host: config.HTTP_HOST, port: config.HTTP_PORT },
    release: clients.close,
  });
});
