export { filingsEnv, filingsSettings } from './config.ts';
export { createFilingsService, type FilingsService, type FilingsServiceOptions } from './service.ts';
