import { outboxMigration, processedEventsMigration } from '@mimamori/bus';
import { accountV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import type { ServiceModule } from '@mimamori/service-host';
import { accountServer } from './grpc/account-server.ts';
import { createAccountStore } from './store/account-store.ts';
import { ACCOUNT_SCHEMA, accountMigrations } from './store/migrations.ts';

export interface AccountDeps {
  db: Db;
  logger: Logger;
}

export function createAccountService({ db, logger }: AccountDeps): ServiceModule {
  const store = createAccountStore(db);
  return {
    name: 'account',
    schema: ACCOUNT_SCHEMA,
    migrations: [
      ...accountMigrations,
      outboxMigration(ACCOUNT_SCHEMA),
      processedEventsMigration(ACCOUNT_SCHEMA),
    ],
    streams: [streams.accounts],
    outbox: true,
    grpc: [{ definition: accountV1.AccountServiceService, implementation: accountServer({ store, logger }) }],
  };
}
