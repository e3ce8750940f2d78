/**
 * A `Retry-After` header as milliseconds: delta-seconds (Slack, Teams) or an HTTP date; null when
 * absent or unreadable, so the caller's own backoff applies.
 */
export function retryAfterMs(header: string | null, nowMs: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}
