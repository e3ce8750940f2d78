import type { ServiceModule } from '@mimamori/service-host';

/**
 * Follows company filings (TDnet/EDINET, SEC, GlobeNewswire).
 * Its own schema and the standard gRPC health service exist from the start; its API, events
 * and tables arrive with the issue that builds it.
 */
export function createFilingsService(): ServiceModule {
  return { name: 'filings', schema: 'filings', migrations: [] };
}
