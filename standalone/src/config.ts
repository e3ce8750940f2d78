import { z } from 'zod';

export const standaloneEnv = z.object({
  // Port the product is served on; 0 picks a free one.
  MIMAMORI_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // Address to bind; 127.0.0.1 keeps it on this machine.
  MIMAMORI_HOST: z.string().default('127.0.0.1'),
  // Where the embedded database, blobs and the local mailbox live.
  MIMAMORI_DATA_DIR: z.string().default('.data'),
  // The built SPA to serve; another folder lets several builds be tested side by side.
  MIMAMORI_WEB_DIST: z.string().optional(),
  // Tests only: host:port fixture servers the crawler's egress guard lets through (comma-separated).
  CRAWLER_ALLOW: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  // The crawler's proxy pool for sites that use one: http://user:pass@host:port, comma-separated.
  // Without it a site's proxy option is refused at registration.
  CRAWLER_PROXIES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  // Billing (docs/billing.md). Prices as the account service takes them (PLAN_PRICES, ADDON_PRICES);
  // without STRIPE_SECRET_KEY, a product on loopback bills through a local Stripe stand-in.
  PLAN_PRICES: z.string().default('{}'),
  ADDON_PRICES: z.string().default('{}'),
  STRIPE_SECRET_KEY: z.string().default(''),
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  STRIPE_API_BASE: z.string().default(''),
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  RENEWAL_GRACE_DAYS: z.coerce.number().int().min(0).default(7),
  // How often ended trials and passed hold deadlines are looked for; tests set it short.
  TRIAL_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).default(60_000),
  // pino level.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Export traces over OTLP/HTTP to this endpoint; off when unset.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
});
