export { crawlerEnv } from './config.ts';
export type * from './domain/page-fetcher.ts';
export {
  type AreaAsSeen,
  compareServedHtml,
  createHttpPageFetcher,
  type HttpPageFetcherOptions,
  type ServedHtmlComparison,
} from './http/index.ts';
export { type CrawlerDeps, createCrawlerService } from './service.ts';
