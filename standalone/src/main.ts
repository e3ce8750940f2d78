import { fileURLToPath } from 'node:url';
import { filingsSettingsFrom } from '@mimamori/filings';
import { listensOnLoopbackOnly } from '@mimamori/gateway';
import { operatorFromEnv } from '@mimamori/operator';
import { parseAddonPrices, parsePlanPrices } from '@mimamori/plans';
import { createLogger, createShutdown, loadConfig, startTelemetry } from '@mimamori/runtime';
import { standaloneEnv, standaloneFilingsEnv } from './config.ts';
import { startStandalone } from './start-standalone.ts';

const config = loadConfig(standaloneEnv);
const telemetry = startTelemetry({
  serviceName: 'mimamori',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
// Readable lines for a person at a terminal; JSON when piped or collected.
const logger = createLogger({ service: 'mimamori', level: config.LOG_LEVEL, pretty: process.stdout.isTTY });
const shutdown = createShutdown({ logger, timeoutMs: 8_000 });
shutdown.listen();
shutdown.register('telemetry', () => telemetry.shutdown());

try {
  const { url, stripeStandInUrl } = await startStandalone({
    host: config.MIMAMORI_HOST,
    port: config.MIMAMORI_HTTP_PORT,
    dataDir: config.MIMAMORI_DATA_DIR,
    webDistDir: config.MIMAMORI_WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
    crawlerAllow: config.CRAWLER_ALLOW,
    webhookEgressAllow: config.WEBHOOK_EGRESS_ALLOW,
    proxies: config.CRAWLER_PROXIES,
    filings: filingsSettingsFrom(standaloneFilingsEnv(config, process.env), config.MIMAMORI_TIME_SCALE),
    prices: { plans: parsePlanPrices(config.PLAN_PRICES), addons: parseAddonPrices(config.ADDON_PRICES) },
    sweepIntervalMs: config.TRIAL_SWEEP_INTERVAL_MS,
    timeScale: config.MIMAMORI_TIME_SCALE,
    // Selling for real (production, or a live Stripe key) needs the seller's every legal detail;
    // otherwise the legal pages show marked samples.
    operator: operatorFromEnv(process.env, {
      required: process.env.NODE_ENV === 'production' || config.STRIPE_SECRET_KEY.startsWith('sk_live_'),
    }),
    ...(config.STRIPE_SECRET_KEY
      ? {
          stripe: {
            secretKey: config.STRIPE_SECRET_KEY,
            webhookSecret: config.STRIPE_WEBHOOK_SECRET,
            publishableKey: config.STRIPE_PUBLISHABLE_KEY || undefined,
          },
        }
      : {}),
    logger,
    shutdown,
  });
  // Printed plainly (not only logged) so a person, or a test, can find the address.
  console.log(`Mimamori is running at ${url}`);
  console.log(`Outgoing mail: ${url}dev/mailbox`);
  if (listensOnLoopbackOnly(config.MIMAMORI_HOST)) {
    console.log(`Discord messages: ${url}dev/discord`);
    console.log(`Webhook receiver to try webhooks with: ${url}dev/webhooks`);
    console.log(
      `Chat platforms (docs/channels.md#trying-it-locally): ${url}dev/<platform>, e.g. ${url}dev/chatwork`,
    );
  }
  // Its test clock moves billing's time (docs/billing.md): trials end, renewals fail on demand.
  if (stripeStandInUrl) console.log(`Stripe stand-in (billing without Stripe): ${stripeStandInUrl}`);
} catch (error) {
  logger.fatal({ err: error }, 'Mimamori failed to start');
  await shutdown.run('start failure');
  process.exit(1);
}
