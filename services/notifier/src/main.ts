import { openMailTransport } from '@mimamori/mail';
import { createSecretBox } from '@mimamori/secret-box';
import { runServiceProcess } from '@mimamori/service-host';
import { notifierEnv } from './config.ts';
import { createNotifierService } from './service.ts';

await runServiceProcess('notifier', notifierEnv, ({ config, db, logger }) =>
  createNotifierService({
    db,
    logger,
    mail: openMailTransport(config.SMTP_URL, config.MAIL_FROM),
    secretBox: createSecretBox(config.SECRET_KEYS),
    publicUrl: () => config.PUBLIC_URL,
  }),
);
