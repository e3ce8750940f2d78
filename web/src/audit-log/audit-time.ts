/**
 * Days of the date filter in the account's time zone: a day the person picks starts at midnight
 * where they are, not in UTC, so "from 6 December" in Tokyo includes 00:30 JST.
 */

function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((item) => item.type === type)?.value ?? 0);
  const asUtc = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a day (YYYY-MM-DD) starts in the zone; `days` later for the end of a range. */
export function dayStart(day: string, timeZone: string, days = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const zone = knownZone(timeZone);
  const local = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  // Twice: the first guess's offset may differ from the answer's across a DST change.
  let instant = local - offsetMs(local, zone);
  instant = local - offsetMs(instant, zone);
  return new Date(instant).toISOString();
}

function knownZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone || 'UTC' });
    return zone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A short name of the browser and system a user agent names ("Chrome · macOS"); empty if none. */
export function deviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|HeadlessChrome|CriOS/.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : '';
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  if (browser || system) return [browser, system].filter(Boolean).join(' · ');
  // A program's own name (curl/8.5, a deploy script): its first word says enough.
  return userAgent.split(/[\s(]/)[0]?.slice(0, 40) ?? '';
}
