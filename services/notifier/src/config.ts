import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

export const notifierEnv = {
  ...serviceProcessEnv,
  // Where outgoing mail goes: smtp://user:pass@host:port, or mailbox:<folder> to keep it locally.
  SMTP_URL: z.string().min(1),
  // The From header of every message.
  MAIL_FROM: z.string().min(3).default('Mimamori <no-reply@mimamori.local>'),
};
