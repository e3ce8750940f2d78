import { openBlobStore } from '@mimamori/blob-store';
import { accountV1, diffV1, targetV1 } from '@mimamori/contracts';
import {
  createGrpcClient,
  createLogger,
  createShutdown,
  loadConfig,
  startTelemetry,
} from '@mimamori/runtime';
import { z } from 'zod';
import { gatewayEnv } from './config.ts';
import { createGateway } from './gateway.ts';
import { previewCrawlers } from './preview-crawlers.ts';

const config = loadConfig(z.object(gatewayEnv));
const telemetry = startTelemetry({
  serviceName: 'mimamori-gateway',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
const shutdown = createShutdown({ logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
shutdown.listen();
shutdown.register('telemetry', () => telemetry.shutdown());

const account = createGrpcClient(accountV1.AccountServiceClient, config.ACCOUNT_GRPC_ADDR);
shutdown.register('account client', async () => account.close());
const preview = config.CRAWLER_GRPC_ADDR ? previewCrawlers(config.CRAWLER_GRPC_ADDR) : undefined;
if (preview) shutdown.register('crawler client', async () => preview.close());
const target = config.TARGET_GRPC_ADDR
  ? createGrpcClient(targetV1.TargetServiceClient, config.TARGET_GRPC_ADDR)
  : undefined;
if (target) shutdown.register('target client', async () => target.close());
const history = config.DIFF_GRPC_ADDR
  ? {
      client: createGrpcClient(diffV1.HistoryServiceClient, config.DIFF_GRPC_ADDR),
      blobs: await openBlobStore(
        config.BLOB_URL ??
          `${config.NATS_URL.replace(/\/+$/, '')}/${config.BUS_NAMESPACE ? `${config.BUS_NAMESPACE}_` : ''}mimamori_blobs`,
      ),
    }
  : undefined;
if (history) {
  shutdown.register('diff client', async () => history.client.close());
  shutdown.register('blob store', () => history.blobs.close());
}
const gateway = await createGateway({
  logger,
  account,
  preview,
  target,
  history,
  webDistDir: config.WEB_DIST_DIR,
  publicUrl: config.PUBLIC_URL,
  trustProxy: config.TRUST_PROXY === 'true' ? true : config.TRUST_PROXY || false,
  isShuttingDown: shutdown.isShuttingDown,
});
const url = await gateway.listen({ host: config.HTTP_HOST, port: config.HTTP_PORT });
shutdown.register('http', () => gateway.close());
logger.info({ url }, 'gateway listening');
