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
  // The account service's SECRET_KEYS (same value): opens the link tokens sealed in its events.
  SECRET_KEYS: z.string().min(1),
};
