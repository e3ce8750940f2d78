import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

export const schedulerEnv = {
  ...serviceProcessEnv,
  // Milliseconds between dispatch ticks: a due check is published within about this long.
  SCHEDULER_TICK_MS: z.coerce.number().int().min(10).max(5_000).default(250),
  // The longest a site that keeps failing waits between checks, in minutes.
  SCHEDULER_BACKOFF_MAX_MINUTES: z.coerce.number().int().min(1).default(360),
  // checks.run publishes awaiting JetStream's acknowledgement at once.
  SCHEDULER_PUBLISH_CONCURRENCY: z.coerce.number().int().min(1).max(4_096).default(256),
};
