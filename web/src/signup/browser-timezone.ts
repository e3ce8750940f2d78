/**
 * docs/product.md#time-zones: the browser's own zone by its IANA name (Asia/Tokyo), so times read
 * "日本時間" / "Japan time" in mails; a browser that names none falls back to its offset as an
 * Etc/GMT zone (POSIX sign, so UTC+9 is Etc/GMT-9). An offset that is not whole hours has no such
 * zone: none is returned.
 */
export function browserTimezone(now = new Date(), zone = browserZoneName()): string | undefined {
  if (zone && !zone.startsWith('Etc/') && isKnownZone(zone)) return zone;
  const minutesEast = -now.getTimezoneOffset();
  if (minutesEast % 60 !== 0) return undefined;
  const hours = minutesEast / 60;
  if (hours === 0) return 'Etc/GMT';
  return `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

function browserZoneName(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
