import { chatSettingsFromEnv } from '@mimamori/chat';
import { operatorFromEnv } from '@mimamori/operator';
import { parseAddonPrices, parsePlanPrices } from '@mimamori/plans';
import { createSecretBox } from '@mimamori/secret-box';
import { runServiceProcess } from '@mimamori/service-host';
import { createStripe, stripeBilling } from './clients/stripe-billing.ts';
import { stripeInvoices } from './clients/stripe-invoices.ts';
import { accountEnv } from './config.ts';
import { systemClock } from './domain/clock.ts';
import { createAccountService } from './service.ts';

await runServiceProcess('account', accountEnv, ({ config, db, logger }) =>
  createAccountService({
    db,
    logger,
    secretBox: createSecretBox(config.SECRET_KEYS),
    prices: parsePlanPrices(config.PLAN_PRICES),
    addonPrices: parseAddonPrices(config.ADDON_PRICES),
    trialGraceMs: config.TRIAL_GRACE_DAYS * 86_400_000,
    purgeGraceMs: config.ACCOUNT_PURGE_GRACE_DAYS * 86_400_000,
    sweepIntervalMs: config.TRIAL_SWEEP_INTERVAL_MS,
    discordApiBase: config.DISCORD_API_BASE,
    receiptFontPath: config.RECEIPT_FONT_PATH,
    // The seller on every receipt; validated at start (a production run needs every detail).
    issuer: operatorFromEnv(process.env),
    webhookEgressAllow: config.WEBHOOK_EGRESS_ALLOW.split(',').filter(Boolean),
    chatSettings: chatSettingsFromEnv(config),
    billing: config.STRIPE_SECRET_KEY
      ? {
          provider: stripeBilling({
            secretKey: config.STRIPE_SECRET_KEY,
            webhookSecret: config.STRIPE_WEBHOOK_SECRET,
            ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
            clock: systemClock,
          }),
          renewalGraceMs: config.RENEWAL_GRACE_DAYS * 86_400_000,
          invoices: stripeInvoices(
            createStripe(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE || undefined),
          ),
        }
      : null,
    xOAuth: config.X_OAUTH_CLIENT_ID
      ? {
          clientId: config.X_OAUTH_CLIENT_ID,
          clientSecret: config.X_OAUTH_CLIENT_SECRET,
          authorizeUrl: config.X_OAUTH_AUTHORIZE_URL,
          tokenUrl: config.X_OAUTH_TOKEN_URL,
          userInfoUrl: config.X_OAUTH_USERINFO_URL,
          scopes: config.X_OAUTH_SCOPES,
        }
      : null,
  }),
);
