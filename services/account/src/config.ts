import { CHAT_ENV_NAMES } from '@mimamori/chat';
import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

export const accountEnv = {
  ...serviceProcessEnv,
  // Keys sealing secrets at rest (Discord webhook URLs) and link tokens in mail events:
  // `<id>:<base64 32 bytes>`, comma-separated, the first one sealing. Shared with the notifier
  // and the crawler. Required: a secret sealed with a key anyone can read is not sealed.
  SECRET_KEYS: z.string().min(1),
  // Plan prices, JPY whole units and USD cents per cycle: {"3":{"month":{"JPY":980,"USD":700},"year":{…}}}.
  PLAN_PRICES: z.string().default('{}'),
  // Custom-plan add-on prices, shaped the same, keyed by add-on (sites_5, 10min, 1min, ss, mail, line).
  ADDON_PRICES: z.string().default('{}'),
  // Stripe (docs/billing.md). Without a secret key, billing is off; STRIPE_API_BASE points the SDK at
  // the local stand-in (http://127.0.0.1:12111) instead of api.stripe.com.
  STRIPE_SECRET_KEY: z.string().default(''),
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  STRIPE_API_BASE: z.string().default(''),
  // The CJK font receipts are drawn with (Debian's fonts-noto-cjk); the service refuses to start
  // with billing on and no font here.
  RECEIPT_FONT_PATH: z.string().default('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'),
  // How long status 6 (renewal failed) lasts before the account is put on hold (7).
  RENEWAL_GRACE_DAYS: z.coerce.number().int().min(0).default(7),
  // How long an account stays on hold after its trial ends without a card before it is cancelled.
  TRIAL_GRACE_DAYS: z.coerce.number().int().min(0).default(30),
  // How long a deleted account's data is kept before it is erased everywhere (the mail states the
  // date). Decimals allowed, for tests.
  ACCOUNT_PURGE_GRACE_DAYS: z.coerce.number().min(0).default(30),
  // How often the trial sweeper looks for ended trials and due cancellations.
  TRIAL_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).default(60_000),
  // Where Discord webhooks are posted; a local stand-in in tests. Stored URLs always name discord.com.
  DISCORD_API_BASE: z.string().url().default('https://discord.com'),
  // Webhook receivers (`host:port`, comma-separated) reached without the SSRF guard's address
  // check: local receivers in tests only. Empty (the default) in the product: every webhook URL
  // must lead to a public address.
  WEBHOOK_EGRESS_ALLOW: z.string().default(''),
  // Sign in with X (OAuth 2.0 + PKCE); unset client id turns it off.
  X_OAUTH_CLIENT_ID: z.string().default(''),
  X_OAUTH_CLIENT_SECRET: z.string().default(''),
  X_OAUTH_AUTHORIZE_URL: z.string().url().default('https://x.com/i/oauth2/authorize'),
  X_OAUTH_TOKEN_URL: z.string().url().default('https://api.x.com/2/oauth2/token'),
  X_OAUTH_USERINFO_URL: z.string().url().default('https://api.x.com/2/users/me'),
  X_OAUTH_SCOPES: z.string().default('users.read tweet.read'),
  // The chat platforms (docs/channels.md): SLACK_*, TEAMS_API_BASE, LINE_*, CHATWORK_API_BASE,
  // TELEGRAM_*; read by chatSettingsFromEnv, which refuses a half-configured platform at start.
  ...Object.fromEntries(CHAT_ENV_NAMES.map((name) => [name, z.string().default('')])),
};
