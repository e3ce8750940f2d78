import { runServiceProcess } from '@mimamori/service-host';
import { schedulerEnv } from './config.ts';
import { createSchedulerService } from './service.ts';

await runServiceProcess('scheduler', schedulerEnv, ({ config, db, bus, logger, metrics }) =>
  createSchedulerService({
    db,
    bus,
    logger,
    tickMs: config.SCHEDULER_TICK_MS,
    timeScale: config.MIMAMORI_TIME_SCALE,
    backoffMaxMs: config.SCHEDULER_BACKOFF_MAX_MINUTES * 60_000,
    publishConcurrency: config.SCHEDULER_PUBLISH_CONCURRENCY,
    dispatchCeilingPerSecond: config.SCHEDULER_DISPATCH_CEILING,
    metrics,
  }),
);
