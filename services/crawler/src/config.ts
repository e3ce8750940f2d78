import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );

export const crawlerEnv = {
  ...serviceProcessEnv,
  // Keys that open the sealed cookies, typed texts and sessions of a check (`<id>:<base64>`,
  // comma-separated, the first one sealing). Without them, checks carrying sealed values fail
  // with invalid_job.
  SECRET_KEYS: z.string().default(''),
  // Where area content too large for an event and screenshots go: file:<folder> or
  // nats://host:port/<bucket>. Default: a JetStream object store on NATS_URL.
  BLOB_URL: z.string().optional(),
  // Checks this process runs at once.
  CRAWLER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  // How long a check may go without a heartbeat before another crawler gets it.
  CRAWLER_ACK_WAIT_MS: z.coerce.number().int().min(1_000).default(60_000),
  // One attempt's deadline for loading a page in HTTP mode.
  CRAWLER_PAGE_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(30_000),
  // The proxy pool for sites that use one: http://user:pass@host:port, comma-separated. Set the
  // target service's PROXY_POOL=true with it: without it registration refuses the proxy option,
  // and a check that asks for a proxy here without a pool fails rather than going direct.
  CRAWLER_PROXIES: list,
  // The address the gateway reaches this crawler at, e.g. the pod's IP (the chart sets it from
  // status.podIP); with GRPC_PORT it goes into wizard preview session ids so that, with several
  // crawler replicas, every preview call reaches the crawler holding the page (ADR 0011).
  // Default: GRPC_HOST when that is a specific address.
  CRAWLER_PREVIEW_HOST: z.string().optional(),
  // Tests only: host:port fixture servers the egress guard lets through. Empty in production.
  CRAWLER_ALLOW: list,
  // One browser check in this many renders in full whatever its recorded answers (ADR 0031);
  // 0: none, for a test that counts what unchanged checks write.
  CRAWLER_FORCED_RENDER_EVERY: z.coerce.number().int().min(0).default(30),
};
