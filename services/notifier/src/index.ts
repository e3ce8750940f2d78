export { notifierEnv } from './config.ts';
export { createNotifierService } from './service.ts';
