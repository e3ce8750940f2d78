import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';

export const schedulerEnv = {
  ...serviceProcessEnv,
  // Milliseconds between dispatch ticks: a due check is published within about this long.
  SCHEDULER_TICK_MS: z.coerce.number().int().min(10).max(5_000).default(250),
  // The longest a site that keeps failing waits between checks, in minutes.
  SCHEDULER_BACKOFF_MAX_MINUTES: z.coerce.number().int().min(1).default(360),
  // checks.run publishes awaiting JetStream's acknowledgement at once.
  // The most checks.run published in one second: after a full stop the due checks resume at
  // their phases, and this bounds the seconds where many phases meet (ADR 0005).
  SCHEDULER_DISPATCH_CEILING: z.coerce.number().int().min(1).default(2_000),
  SCHEDULER_PUBLISH_CONCURRENCY: z.coerce.number().int().min(1).max(4_096).default(256),
};
