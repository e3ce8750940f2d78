import { openMailTransport } from '@mimamori/mail';
import { createSecretBox } from '@mimamori/secret-box';
import { runServiceProcess } from '@mimamori/service-host';
import { DEVELOPMENT_SECRET_KEYS, notifierEnv } from './config.ts';
import { createNotifierService } from './service.ts';

await runServiceProcess('notifier', notifierEnv, ({ config, db, logger }) => {
  if (!config.SECRET_KEYS) logger.warn('SECRET_KEYS is unset: opening link tokens with the development key');
  return createNotifierService({
    db,
    logger,
    mail: openMailTransport(config.SMTP_URL, config.MAIL_FROM),
    secretBox: createSecretBox(config.SECRET_KEYS ?? DEVELOPMENT_SECRET_KEYS),
    publicUrl: () => config.PUBLIC_URL,
  });
});
