import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

export const targetEnv = {
  ...serviceProcessEnv,
  // Keys sealing the secrets users give for a site (cookies, login and action texts, Discord
  // webhooks): `<id>:<base64 32 bytes>`, comma-separated, the first one sealing. Shared with the
  // crawler and the notifier, which open them.
  SECRET_KEYS: z.string().min(1),
  // 'true' where the crawlers have a proxy pool (CRAWLER_PROXIES). Otherwise a site's proxy
  // option is refused at registration (proxy_unavailable), since it would do nothing.
  PROXY_POOL: z.enum(['true', 'false']).default('false'),
};
