import type { Logger } from '@mimamori/runtime';
import type { Clock } from './domain/clock.ts';
import { sweepTrials, type TrialPort } from './domain/trial.ts';

/** Runs the trial sweep every `intervalMs` until stopped; a failed sweep is logged and retried. */
export function startTrialSweeper(deps: {
  trials: TrialPort;
  clock: Clock;
  graceMs: number;
  intervalMs: number;
  logger: Logger;
}): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = sweepTrials(deps.trials, deps.clock.now(), deps.graceMs)
      .then(({ held, cancelled }) => {
        if (held.length || cancelled.length) deps.logger.info({ held, cancelled }, 'trials swept');
      })
      .catch((error: unknown) => deps.logger.error({ err: error }, 'trial sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
