import { runServiceProcess } from '@mimamori/service-host';
import { filingsEnv } from './config.ts';
import { createFilingsService } from './service.ts';

await runServiceProcess('filings', filingsEnv, () => createFilingsService());
