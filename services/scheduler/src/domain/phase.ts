import { createHash } from 'node:crypto';

/**
 * The product's minute: intervals are counted in it, and the shortest a site may have is one
 * (docs/product.md#checks). Test runs shorten it (MIMAMORI_TIME_SCALE); production never does.
 */
export const MINUTE_MS = 60_000;

/**
 * How far apart the sites of one account with the same interval fall (ADR 0018). Short enough
 * that the account's checks reach the crawler while the browser context of its previous check is
 * still warm (the pool keeps it about 10 s); long enough that a 100-site account is spread over
 * a dozen dispatch ticks instead of landing in one.
 */
export const ACCOUNT_SPREAD_MS = 3_000;

/**
 * Where in its interval a site is checked: the account's phase (a hash of the user id modulo
 * the interval) plus a short offset of the site (a hash of its id modulo ACCOUNT_SPREAD_MS), so
 * an account's sites come due together while accounts, and so restarts and sign-up bursts, stay
 * spread over the interval; every replica, before and after a restart, agrees on the due times
 * without keeping a cursor per site. Migration 3 computes the same in SQL.
 */
export function phaseOf(targetId: string, userId: string, intervalMs: number): number {
  const spreadMs = Math.min(ACCOUNT_SPREAD_MS, intervalMs);
  return ((hash48(userId) % intervalMs) + (hash48(targetId) % spreadMs)) % intervalMs;
}

/** The first 6 bytes of the SHA-256 of the UTF-8 text, big-endian: exact in a JS number. */
function hash48(text: string): number {
  return createHash('sha256').update(text).digest().readUIntBE(0, 6);
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
