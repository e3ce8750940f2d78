export { schedulerEnv } from './config.ts';
export { createSchedulerService } from './service.ts';
