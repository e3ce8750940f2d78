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
