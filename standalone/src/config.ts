import { timeScaleEnv } from '@mimamori/runtime';
import { z } from 'zod';

/** Monthly [JPY, USD cents]; a year costs ten months. Demonstration amounts, not the product's. */
const monthly = (jpy: number, usd: number) => ({
  month: { JPY: jpy, USD: usd },
  year: { JPY: jpy * 10, USD: usd * 10 },
});
const DEMO_PLAN_PRICES = {
  2: monthly(500, 400),
  3: monthly(980, 700),
  4: monthly(1980, 1400),
  5: monthly(2980, 2000),
  6: monthly(3980, 2800),
  7: monthly(4980, 3500),
  8: monthly(5980, 4200),
  9: monthly(6980, 4900),
  10: monthly(7980, 5600),
  11: monthly(9800, 7000),
};
const DEMO_ADDON_PRICES = {
  sites_5: monthly(500, 400),
  '10min': monthly(300, 200),
  '1min': monthly(1000, 700),
  ss: monthly(300, 200),
  mail: monthly(100, 100),
  line: monthly(300, 200),
};

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
  // Tests only: host:port webhook receivers the SSRF guard lets through (comma-separated).
  WEBHOOK_EGRESS_ALLOW: z
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
  // The filings sources to poll (tdnet, edinet, sec, globenewswire, comma-separated); none by
  // default, so the product on a laptop never reaches them. Their keys and addresses are the
  // filings service's own variables (FILINGS_USER_AGENT, EDINET_API_KEY, …; docs/filings.md).
  MIMAMORI_FILINGS_SOURCES: z.string().default(''),
  // While no filings source is named, filings answer from the bundled demo source, marked as
  // demo, so follow → notice can be tried offline (docs/filings.md); false turns it off.
  MIMAMORI_FILINGS_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  // Billing (docs/billing.md). Without STRIPE_SECRET_KEY the local Stripe stand-in starts on
  // loopback and the card screens show the test card form; with it, the product talks to Stripe.
  STRIPE_SECRET_KEY: z.string().default(''),
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  // Prices per plan and cycle, JPY in yen and USD in cents; add-ons likewise. The defaults price
  // every plan and add-on so the one-command start can be tried end to end on the stand-in.
  PLAN_PRICES: z.string().default(JSON.stringify(DEMO_PLAN_PRICES)),
  ADDON_PRICES: z.string().default(JSON.stringify(DEMO_ADDON_PRICES)),
  // How often ended trials and passed hold deadlines are looked for; tests set it short.
  TRIAL_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).default(60_000),
  ...timeScaleEnv,
  // pino level.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Export traces over OTLP/HTTP to this endpoint; off when unset.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
});

/**
 * The filings service's variables as the single-process product sets them: its sources from
 * MIMAMORI_FILINGS_SOURCES, and the bundled demo while that names none (unless
 * MIMAMORI_FILINGS_DEMO is false), so the demo never runs beside a real source.
 */
export function standaloneFilingsEnv(
  config: Pick<z.infer<typeof standaloneEnv>, 'MIMAMORI_FILINGS_SOURCES' | 'MIMAMORI_FILINGS_DEMO'>,
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const sources = config.MIMAMORI_FILINGS_SOURCES.trim();
  return {
    ...env,
    FILINGS_SOURCES: sources,
    FILINGS_DEMO: String(config.MIMAMORI_FILINGS_DEMO && sources === ''),
  };
}
