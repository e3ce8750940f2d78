import { runServiceProcess } from '@mimamori/service-host';
import { crawlerEnv } from './config.ts';
import { createCrawlerService } from './service.ts';

await runServiceProcess('crawler', crawlerEnv, () => createCrawlerService());
