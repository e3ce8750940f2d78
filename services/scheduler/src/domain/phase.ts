import { createHash } from 'node:crypto';

/** The shortest check interval a site may have (docs/product.md#checks). */
export const MIN_INTERVAL_MS = 60_000;

/**
 * Where in its interval a site is checked: a fixed offset from a hash of its id, so sites
 * registered together fall in different seconds and every replica, before and after a restart,
 * agrees on the due times without keeping a cursor per site.
 */
export function phaseOf(targetId: string, intervalMs: number): number {
  const digest = createHash('sha256').update(targetId).digest();
  return digest.readUIntBE(0, 6) % intervalMs;
}

/** An inclusive range of phases, in milliseconds. */
export interface PhaseRange {
  low: number;
  high: number;
}

/**
 * The phases whose due time falls in the window (from, to] for one interval. A site with
 * phase p is due at every k·interval + p; the window is shorter than the interval, so at most
 * once, and the range wraps past the interval's end when the window does.
 */
export function phaseRanges(fromMs: number, toMs: number, intervalMs: number): PhaseRange[] {
  if (toMs - fromMs >= intervalMs) throw new Error('a dispatch window must be shorter than the interval');
  if (toMs <= fromMs) return [];
  const start = modulo(fromMs, intervalMs);
  const end = modulo(toMs, intervalMs);
  if (start < end) return [{ low: start + 1, high: end }];
  const ranges: PhaseRange[] = [];
  if (start + 1 <= intervalMs - 1) ranges.push({ low: start + 1, high: intervalMs - 1 });
  ranges.push({ low: 0, high: end });
  return ranges;
}

/** The due time in the window (from, to] of a site with this phase (one of phaseRanges). */
export function dueTimeIn(fromMs: number, intervalMs: number, phaseMs: number): number {
  return fromMs + modulo(phaseMs - modulo(fromMs, intervalMs), intervalMs);
}

function modulo(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}
