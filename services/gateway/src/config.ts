import { CHAT_ENV_NAMES } from '@mimamori/chat';
import { parseImageLinkKey } from '@mimamori/image-links';
import { runtimeEnv } from '@mimamori/runtime';
import { z } from 'zod';

export const gatewayEnv = {
  ...runtimeEnv,
  // Port of the browser-facing HTTP API and SPA.
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // Address the HTTP server binds.
  HTTP_HOST: z.string().default('127.0.0.1'),
  // host:port of the account service's gRPC server.
  ACCOUNT_GRPC_ADDR: z.string().min(3),
  // gRPC target of the crawlers (the wizard preview): host:port of a headless Service, so each
  // crawler pod is reachable by its IP (ADR 0011), or an ipv4:host:port,host:port list; without
  // it /api/preview is absent.
  CRAWLER_GRPC_ADDR: z.string().min(3).optional(),
  // The keys the crawler opens sealed values with (as the crawler's SECRET_KEYS): a login typed in
  // the wizard is sealed with them for the crawler. Without them it travels as typed.
  SECRET_KEYS: z.string().default(''),
  // host:port of the target service's gRPC server (monitored sites); without it the site routes are absent.
  TARGET_GRPC_ADDR: z.string().min(3).optional(),
  // host:port of the filings service's gRPC server (company follows); without it the filings
  // paths answer 503 filings_unavailable and user_info lists no follows.
  FILINGS_GRPC_ADDR: z.string().min(3).optional(),
  // host:port of the diff service's gRPC server (site history); without it the site-detail routes are absent.
  DIFF_GRPC_ADDR: z.string().min(3).optional(),
  // Where the diff service keeps the before/after pictures: file:<folder> or nats://host:port/<bucket>.
  // Default: the services' default JetStream object store on NATS_URL.
  BLOB_URL: z.string().optional(),
  // NATS and the namespace the default BLOB_URL is derived from, as the crawler and diff derive it.
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  BUS_NAMESPACE: z.string().default(''),
  // The built SPA (vite build output) to serve; none when the SPA is served elsewhere.
  WEB_DIST_DIR: z.string().optional(),
  // The product's address in the browser (https://mimamori.example); OAuth redirect URIs start
  // with it. The request's own host when unset.
  PUBLIC_URL: z.string().url().optional(),
  // The key the notifier signs public picture links with (base64 of 32 bytes, the notifier's
  // IMAGE_LINK_KEY too); without it /i/<token> is absent and LINE and Teams get no pictures
  // (docs/channels.md#images).
  IMAGE_LINK_KEY: z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      try {
        return parseImageLinkKey(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  // The proxies in front (the ingress) whose X-Forwarded-For is believed, e.g. for per-address
  // sign-in throttling: 'true' for any, or comma-separated addresses/CIDRs. Empty (the default):
  // none, so a client cannot pick the address it is throttled by.
  TRUST_PROXY: z.string().default(''),
  // Stripe's publishable key (pk_…) for the browser's Payment Element (docs/billing.md). Without it
  // the card screens show the clearly marked test card form, which only Stripe's test mode accepts.
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  // The chat platforms (docs/channels.md): the same SLACK_*, TEAMS_API_BASE, LINE_*,
  // CHATWORK_API_BASE and TELEGRAM_* the account service has, for the platforms' inbound
  // callbacks (/hooks/<platform>, verified with their secrets); a half-configured one is refused.
  ...Object.fromEntries(CHAT_ENV_NAMES.map((name) => [name, z.string().default('')])),
};
