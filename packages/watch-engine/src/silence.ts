/**
 * Silence alerts (docs/product.md#silence-alerts): a site can ask to be told when its page has
 * not changed for N days, once per quiet spell; the next update starts a new spell.
 */

/** The days a site may set; 0 (not in the range) turns the alert off. */
export const SILENCE_DAYS_RANGE = { min: 1, max: 365 } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SilenceWatch {
  /** The site's newest update, or when it was registered if it has none. */
  lastChangeAt: Date;
  /** The spell already told: the lastChangeAt it was told for; null when none was. */
  toldFor: Date | null;
}

/** Whether the alert for the spell since `watch.lastChangeAt` is due at `now` and not told yet. */
export function silenceDue(watch: SilenceWatch, days: number, now: Date, dayMs = DAY_MS): boolean {
  if (days < SILENCE_DAYS_RANGE.min || days > SILENCE_DAYS_RANGE.max) return false;
  if (watch.toldFor && watch.toldFor.getTime() === watch.lastChangeAt.getTime()) return false;
  return now.getTime() - watch.lastChangeAt.getTime() >= days * dayMs;
}
