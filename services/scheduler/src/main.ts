import { runServiceProcess } from '@mimamori/service-host';
import { schedulerEnv } from './config.ts';
import { createSchedulerService } from './service.ts';

await runServiceProcess('scheduler', schedulerEnv, () => createSchedulerService());
