import { openBlobStore } from '@mimamori/blob-store';
import { runServiceProcess } from '@mimamori/service-host';
import { diffEnv } from './config.ts';
import { createDiffService } from './service.ts';

await runServiceProcess('diff', diffEnv, async ({ config, db, bus, logger }) => {
  const blobUrl =
    config.BLOB_URL ??
    `${config.NATS_URL.replace(/\/+$/, '')}/${config.BUS_NAMESPACE ? `${config.BUS_NAMESPACE}_` : ''}mimamori_blobs`;
  return createDiffService({
    db,
    bus,
    logger,
    blobs: await openBlobStore(blobUrl),
    concurrency: config.DIFF_CONCURRENCY,
  });
});
