import { runServiceProcess } from '@mimamori/service-host';
import { accountEnv } from './config.ts';
import { createAccountService } from './service.ts';

await runServiceProcess('account', accountEnv, ({ db, logger }) => createAccountService({ db, logger }));
