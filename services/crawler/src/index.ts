export { crawlerEnv } from './config.ts';
export { createCrawlerService } from './service.ts';
