import { createSecretBox } from '@mimamori/secret-box';
import { runServiceProcess } from '@mimamori/service-host';
import { targetEnv } from './config.ts';
import { createTargetService } from './service.ts';

await runServiceProcess('target', targetEnv, ({ config, db, logger }) =>
  createTargetService({
    db,
    logger,
    secretBox: createSecretBox(config.SECRET_KEYS),
    proxyPool: config.PROXY_POOL === 'true',
  }),
);
