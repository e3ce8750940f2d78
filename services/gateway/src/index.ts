export { type PreviewCrawlers, previewCrawlers } from './clients/preview-crawlers.ts';
export { gatewayEnv } from './config.ts';
export { createGateway, type Gateway, type GatewayDeps } from './gateway.ts';
export { DISCORD_STAND_IN_PATH, listensOnLoopbackOnly } from './http/discord-stand-in-routes.ts';
export { WEBHOOK_RECEIVER_PATH, WEBHOOK_RECEIVER_PREFIX } from './http/webhook-receiver-routes.ts';
export { createGatewayService, type GatewayServiceOptions } from './service.ts';
