export { type BrowserFetcherOptions, createBrowserPageFetcher } from './browser/browser-page-fetcher.ts';
export {
  BrowserCrashedError,
  type BrowserPool,
  type BrowserPoolOptions,
  type ContextSpec,
  createBrowserPool,
} from './browser/browser-pool.ts';
export { CHROMIUM_ARGS, chromiumExecutablePath } from './browser/chromium-binary.ts';
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
