import { CHAT_ENV_NAMES } from '@mimamori/chat';
import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

export const notifierEnv = {
  ...serviceProcessEnv,
  // Where outgoing mail goes: smtp://user:pass@host:port, or mailbox:<folder> to keep it locally.
  SMTP_URL: z.string().min(1),
  // The From header of every message.
  MAIL_FROM: z.string().min(3).default('Mimamori <no-reply@mimamori.local>'),
  // The product's address in the browser; mailed links (verification, reset) start with it.
  PUBLIC_URL: z.string().url().default('http://127.0.0.1:8080'),
  // The account service's SECRET_KEYS (same value): opens the link tokens sealed in its events
  // and the Discord webhooks sealed by the account and target services.
  SECRET_KEYS: z.string().min(1),
  // The account service (GetNotificationProfile: addresses, language, time zone, Discord link).
  ACCOUNT_GRPC_ADDR: z.string().min(1),
  // Where the diff service keeps the before/after pictures: file:<folder> or
  // nats://host:port/<bucket>. Default: the crawler's default JetStream store.
  BLOB_URL: z.string().optional(),
  // Where Discord webhooks are executed; a local stand-in in tests. Stored URLs name discord.com.
  DISCORD_API_BASE: z.string().url().default('https://discord.com'),
  // Webhook receivers (`host:port`, comma-separated) reached without the SSRF guard's address
  // check: local receivers in tests only. Empty (the default) in the product.
  WEBHOOK_EGRESS_ALLOW: z.string().default(''),
  // How long the copy of an event that is sending a message holds it (renewed while it sends)
  // before another copy may send it: after a crash mid-send, the update goes out again this long
  // later at most. Also the update consumer's ack wait.
  DELIVERY_CLAIM_SECONDS: z.coerce.number().int().min(5).max(3_600).default(120),
  // The chat platforms (docs/channels.md): the same SLACK_*, TEAMS_API_BASE, LINE_*,
  // CHATWORK_API_BASE and TELEGRAM_* the account service has; a half-configured one is refused.
  ...Object.fromEntries(CHAT_ENV_NAMES.map((name) => [name, z.string().default('')])),
  // Signs the public picture links under PUBLIC_URL that LINE and Teams fetch (the gateway's key):
  // base64 of 32 bytes. Empty: those platforms get their messages without pictures.
  IMAGE_LINK_KEY: z.string().default(''),
};
