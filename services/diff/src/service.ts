import type { ServiceModule } from '@mimamori/service-host';

/**
 * Runs the watch engine on snapshots and records check results and updates.
 * Its own schema and the standard gRPC health service exist from the start; its API, events
 * and tables arrive with the issue that builds it.
 */
export function createDiffService(): ServiceModule {
  return { name: 'diff', schema: 'diff', migrations: [] };
}
