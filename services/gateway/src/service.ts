import type { ServiceModule } from '@mimamori/service-host';
import { createGateway, type GatewayDeps } from './gateway.ts';

export interface GatewayServiceOptions extends GatewayDeps {
  /** Where the browser-facing HTTP API and SPA are served; port 0 picks a free one. */
  listen: { host: string; port: number };
  /**
   * Releases what the caller opened for the gateway (its gRPC clients, the blob store); called
   * once the HTTP server has stopped taking requests.
   */
  release?: () => Promise<void>;
}

/**
 * The gateway as a service module: no schema, events or gRPC API of its own, only the HTTP
 * server, which the host starts last and stops first, with the same logs, telemetry, ops
 * endpoints and shutdown as every other service.
 */
export async function createGatewayService(options: GatewayServiceOptions): Promise<ServiceModule> {
  const { listen, release, ...deps } = options;
  const gateway = await createGateway(deps);
  return {
    name: 'gateway',
    http: { listen: () => gateway.listen(listen), close: () => gateway.close() },
    ...(release ? { stop: release } : {}),
  };
}
