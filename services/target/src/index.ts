export { targetEnv } from './config.ts';
export { createTargetService, type TargetServiceOptions } from './service.ts';
