import { runServiceProcess } from '@mimamori/service-host';
import { filingsEnv, filingsSettings } from './config.ts';
import { createFilingsService } from './service.ts';

await runServiceProcess('filings', filingsEnv, ({ config, db, logger, metrics }) =>
  createFilingsService({
    db,
    logger,
    metrics,
    settings: filingsSettings(config, config.MIMAMORI_TIME_SCALE),
  }),
);
