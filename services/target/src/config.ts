import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

export const targetEnv = {
  ...serviceProcessEnv,
  // Keys sealing the secrets users give for a site (cookies, login and action texts, Discord
  // webhooks): `<id>:<base64 32 bytes>`, comma-separated, the first one sealing. Shared with the
  // crawler and the notifier, which open them.
  SECRET_KEYS: z.string().min(1),
};
