import type { ServiceModule } from '@mimamori/service-host';

/**
 * Monitored sites (v1 and v2), areas, actions, rules, check and update history.
 * Its own schema and the standard gRPC health service exist from the start; its API, events
 * and tables arrive with the issue that builds it.
 */
export function createTargetService(): ServiceModule {
  return { name: 'target', schema: 'target', migrations: [] };
}
