import { isIPv6 } from 'node:net';
import { openBlobStore } from '@mimamori/blob-store';
import { createSecretBox } from '@mimamori/secret-box';
import { runServiceProcess } from '@mimamori/service-host';
import { crawlerEnv } from './config.ts';
import { createCrawlerService } from './service.ts';
import { lazyBlobStore } from './store/lazy-blob-store.ts';

await runServiceProcess('crawler', crawlerEnv, async ({ config, bus, logger, metrics }) => {
  if (!config.SECRET_KEYS)
    logger.warn('SECRET_KEYS is not set: checks with sealed cookies, texts or sessions will fail');
  if (config.CRAWLER_ALLOW.length > 0)
    logger.warn({ allow: config.CRAWLER_ALLOW }, 'egress allow-list in use (tests only)');
  const previewHost =
    config.CRAWLER_PREVIEW_HOST ?? (isWildcard(config.GRPC_HOST) ? undefined : config.GRPC_HOST);
  if (!previewHost)
    logger.warn(
      'CRAWLER_PREVIEW_HOST is not set: wizard previews work only while there is one crawler replica',
    );
  const blobUrl =
    config.BLOB_URL ??
    `${config.NATS_URL.replace(/\/+$/, '')}/${config.BUS_NAMESPACE ? `${config.BUS_NAMESPACE}_` : ''}mimamori_blobs`;
  return createCrawlerService({
    bus,
    logger,
    blobs: lazyBlobStore(() => openBlobStore(blobUrl)),
    ...(config.SECRET_KEYS ? { secrets: createSecretBox(config.SECRET_KEYS) } : {}),
    concurrency: config.CRAWLER_CONCURRENCY,
    ackWaitMs: config.CRAWLER_ACK_WAIT_MS,
    pageTimeoutMs: config.CRAWLER_PAGE_TIMEOUT_MS,
    proxies: config.CRAWLER_PROXIES,
    allow: config.CRAWLER_ALLOW,
    forcedRenderEvery: config.CRAWLER_FORCED_RENDER_EVERY,
    metrics,
    timeScale: config.MIMAMORI_TIME_SCALE,
    ...(previewHost ? { previewHome: hostPort(previewHost, config.GRPC_PORT) } : {}),
  });
});

/** Listening on every interface names no address another process could dial. */
function isWildcard(host: string) {
  return host === '0.0.0.0' || host === '::';
}

function hostPort(host: string, port: number) {
  return isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}
