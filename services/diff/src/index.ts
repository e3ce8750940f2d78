export { diffEnv } from './config.ts';
export { createDiffService, type DiffServiceOptions } from './service.ts';
