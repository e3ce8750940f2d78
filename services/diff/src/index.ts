export { diffEnv } from './config.ts';
export { createDiffService } from './service.ts';
