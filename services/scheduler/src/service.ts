import type { ServiceModule } from '@mimamori/service-host';

/**
 * Dispatches due checks on time for every monitored site.
 * Its own schema and the standard gRPC health service exist from the start; its API, events
 * and tables arrive with the issue that builds it.
 */
export function createSchedulerService(): ServiceModule {
  return { name: 'scheduler', schema: 'scheduler', migrations: [] };
}
