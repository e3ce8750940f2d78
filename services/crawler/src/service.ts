import type { ServiceModule } from '@mimamori/service-host';

/**
 * Fetches pages, replays logins and actions, extracts areas, takes screenshots.
 * Its own schema and the standard gRPC health service exist from the start; its API, events
 * and tables arrive with the issue that builds it.
 */
export function createCrawlerService(): ServiceModule {
  return { name: 'crawler', schema: 'crawler', migrations: [] };
}
