import { MIN_INTERVAL_MS } from './phase.ts';

/**
 * How far back a tick still sends a target's start checks (ADR 0019). The event that starts a
 * target reaches the scheduler through the target service's outbox, so its start time is usually
 * already behind the tick window that held it; a minute covers a slow relay, and a start check
 * older than that is left to the phase.
 */
export const START_CHECK_LOOKBACK_MS = MIN_INTERVAL_MS;

/**
 * When a target that starts monitoring (registered, resumed, or saved from paused to monitoring)
 * is checked before its phase takes over (docs/product.md#checks): at once, and a minute later.
 * The first check of a new target only records the data at registration, so the second shows
 * within a minute whether the page changes; a 1-minute target's phase already comes that soon.
 */
export function startCheckTimes(startedAtMs: number, intervalMs: number): number[] {
  if (intervalMs <= MIN_INTERVAL_MS) return [startedAtMs];
  return [startedAtMs, startedAtMs + MIN_INTERVAL_MS];
}

/** The start check times of a target that fall in the window (from, to]. */
export function startChecksIn(
  startedAtMs: number,
  intervalMs: number,
  fromMs: number,
  toMs: number,
): number[] {
  return startCheckTimes(startedAtMs, intervalMs).filter((due) => due > fromMs && due <= toMs);
}
