/**
 * When a site that keeps failing is next checked. The first error changes nothing (a site
 * that is down once is checked again on time); each further consecutive error doubles the
 * wait, counted from the failed check's due time, up to `maxMs` (never less than one interval).
 * Returns undefined when no check is skipped.
 */
export function backoffUntil(
  failures: number,
  failedDueAt: Date,
  intervalMs: number,
  maxMs: number,
): Date | undefined {
  if (failures < 2) return undefined;
  const doubled = intervalMs * 2 ** Math.min(failures - 1, 30);
  const wait = Math.min(doubled, Math.max(maxMs, intervalMs));
  return new Date(failedDueAt.getTime() + wait);
}
