import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import type { Logger } from '@mimamori/runtime';
import type { ServiceModule } from '@mimamori/service-host';
import { welcomeConsumer } from './events/welcome-consumer.ts';
import { createDeliveryStore } from './store/delivery-store.ts';
import { NOTIFIER_SCHEMA, notifierMigrations } from './store/migrations.ts';

export interface NotifierDeps {
  db: Db;
  logger: Logger;
  mail: MailTransport;
}

export function createNotifierService({ db, logger, mail }: NotifierDeps): ServiceModule {
  const deliveries = createDeliveryStore(db);
  return {
    name: 'notifier',
    schema: NOTIFIER_SCHEMA,
    migrations: notifierMigrations,
    streams: [streams.accounts],
    consumers: [welcomeConsumer({ deliveries, mail, logger })],
    stop: () => mail.close(),
  };
}
