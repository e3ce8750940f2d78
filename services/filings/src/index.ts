export { filingsEnv } from './config.ts';
export { createFilingsService } from './service.ts';
