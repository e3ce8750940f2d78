import { MINUTE_MS } from './phase.ts';

/**
 * When a target that starts monitoring (registered, resumed, or saved from paused to monitoring)
 * is checked before its phase takes over (docs/product.md#checks): at once, and a minute later.
 * The first check of a new target only records the data at registration, so the second shows
 * within a minute whether the page changes; a 1-minute target's phase already comes that soon.
 * `minuteMs` is the product's minute in real time (shorter only in test runs).
 */
export function startCheckTimes(startedAtMs: number, intervalMs: number, minuteMs = MINUTE_MS): number[] {
  if (intervalMs <= minuteMs) return [startedAtMs];
  return [startedAtMs, startedAtMs + minuteMs];
}

/** The start check times of a target that fall in the window (from, to]. */
export function startChecksIn(
  startedAtMs: number,
  intervalMs: number,
  fromMs: number,
  toMs: number,
  minuteMs = MINUTE_MS,
): number[] {
  return startCheckTimes(startedAtMs, intervalMs, minuteMs).filter((due) => due > fromMs && due <= toMs);
}
