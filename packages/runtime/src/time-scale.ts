import { z } from 'zod';

/**
 * The product counts its waits in minutes: check intervals, failing sites' backoff, ack waits,
 * sweeps. Tests run the same code with those minutes passing faster, so a check "every minute"
 * comes every second or two instead of making a test wait for real minutes. Production keeps
 * real time: loadConfig refuses any other scale unless NODE_ENV is test.
 */
export const timeScaleEnv = {
  // Tests only: how many times faster the product's minutes pass (30: a 1-minute interval is
  // checked every 2 s). Refused at start unless NODE_ENV=test.
  MIMAMORI_TIME_SCALE: z.coerce.number().int().min(1).max(600).default(1),
};

/** Why a time scale other than 1 is refused, or undefined when it is allowed. */
export function timeScaleProblem(scale: number, nodeEnv: string | undefined): string | undefined {
  if (scale === 1 || nodeEnv === 'test') return undefined;
  return `speeds up the product's clock for tests only and is refused unless NODE_ENV=test (NODE_ENV is ${nodeEnv ?? 'unset'})`;
}

/**
 * A wait of the product's time in real milliseconds under `scale`, never below `floorMs`: a wait
 * that guards real work (an ack wait covering a page load) keeps room for that work.
 */
export function scaledMs(ms: number, scale: number, floorMs = 1): number {
  return Math.max(floorMs, Math.round(ms / scale));
}
