import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { ServiceModule } from '@mimamori/service-host';
import { accountMailConsumer } from './events/account-mail-consumer.ts';
import { createDeliveryStore } from './store/delivery-store.ts';
import { NOTIFIER_SCHEMA, notifierMigrations } from './store/migrations.ts';

export interface NotifierDeps {
  db: Db;
  logger: Logger;
  mail: MailTransport;
  /** Opens the link tokens the account service seals into its mail events. */
  secretBox: SecretBox;
  /**
   * The product's address in the browser, for mailed links; read at send time because the
   * single-process mode learns its port only once it listens.
   */
  publicUrl: () => string;
}

export function createNotifierService({
  db,
  logger,
  mail,
  secretBox,
  publicUrl,
}: NotifierDeps): ServiceModule {
  const deliveries = createDeliveryStore(db);
  return {
    name: 'notifier',
    schema: NOTIFIER_SCHEMA,
    migrations: notifierMigrations,
    streams: [streams.accounts],
    consumers: [accountMailConsumer({ deliveries, mail, secretBox, publicUrl, logger })],
    stop: () => mail.close(),
  };
}
