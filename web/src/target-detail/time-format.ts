/**
 * Times are shown in the user's own time zone (the one their account holds and history days are
 * read in), not the browser's. A zone Intl does not know falls back to the browser's.
 */
export function formatDateTime(iso: string, language: string, timeZone: string): string {
  const at = new Date(iso);
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(language, { ...options, ...(timeZone ? { timeZone } : {}) }).format(at);
  } catch {
    return new Intl.DateTimeFormat(language, options).format(at);
  }
}

/** Today as YYYY-MM-DD in the given time zone: the one-day filter starts there. */
export function dayIn(timeZone: string, now: Date): string {
  const read = (zone: string | undefined) =>
    new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      ...(zone ? { timeZone: zone } : {}),
    }).format(now);
  try {
    return read(timeZone || undefined);
  } catch {
    return read(undefined);
  }
}
