import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

export const diffEnv = {
  ...serviceProcessEnv,
  // Where the crawler puts screenshots and large area content, and where the before/after images
  // go: file:<folder> or nats://host:port/<bucket>. Default: the crawler's default JetStream store.
  BLOB_URL: z.string().optional(),
  // Snapshots judged at once.
  DIFF_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
};
