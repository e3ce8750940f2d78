export { botProtectionMarker } from './bot-protection.ts';
export { type AreaAsSeen, compareServedHtml, type ServedHtmlComparison } from './compare-served-html.ts';
export { decodePage } from './decode-page.ts';
export { createHttpPageFetcher, type HttpPageFetcherOptions, RETRY_DELAY_MS } from './http-page-fetcher.ts';
export { ParsedPage } from './parsed-page.ts';
