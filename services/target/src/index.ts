export { targetEnv } from './config.ts';
export { createTargetService } from './service.ts';
