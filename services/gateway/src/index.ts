export { gatewayEnv } from './config.ts';
export { createGateway, type Gateway, type GatewayDeps } from './gateway.ts';
export { type PreviewCrawlers, previewCrawlers } from './preview-crawlers.ts';
