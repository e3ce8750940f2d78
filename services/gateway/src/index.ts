export { gatewayEnv } from './config.ts';
export { createGateway, type Gateway, type GatewayDeps } from './gateway.ts';
export { createGatewayService, type GatewayServiceOptions } from './service.ts';
