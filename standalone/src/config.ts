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
  // Billing (docs/billing.md). Without STRIPE_SECRET_KEY the local Stripe stand-in starts on
  // loopback and the card screens show the test card form; with it, the product talks to Stripe.
  STRIPE_SECRET_KEY: z.string().default(''),
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  // Prices per plan and cycle, JPY in yen and USD in cents; add-ons likewise. The defaults price a
  // few plans so the one-command start can be tried end to end on the stand-in.
  PLAN_PRICES: z
    .string()
    .default(
      '{"3":{"month":{"JPY":980,"USD":700},"year":{"JPY":9800,"USD":7000}},"5":{"month":{"JPY":2980,"USD":2000},"year":{"JPY":29800,"USD":20000}},"11":{"month":{"JPY":9800,"USD":7000},"year":{"JPY":98000,"USD":70000}}}',
    ),
  ADDON_PRICES: z.string().default('{}'),
  // pino level.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Export traces over OTLP/HTTP to this endpoint; off when unset.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
});
