import type { TimezoneChoice } from '@mimamori/http-api';

function offsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    timeZoneName: 'longOffset',
  }).formatToParts(at);
  const name = parts.find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

function abbreviation(zone: string, at: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(at);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? zone;
}

function label(minutes: number, zone: string): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `(UTC${sign}${hh}:${mm}) ${zone}`;
}

/**
 * Every zone the runtime knows plus the Etc/GMT±N zones the SPA derives from the browser's
 * offset (their sign is inverted by POSIX convention: Etc/GMT-9 is UTC+9), ordered by offset.
 */
export function timezoneList(at: Date): TimezoneChoice[] {
  const etc = Array.from({ length: 27 }, (_, i) => i - 14).map((hours) =>
    hours === 0 ? 'Etc/GMT' : `Etc/GMT${hours > 0 ? '+' : '-'}${Math.abs(hours)}`,
  );
  const zones = [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', ...etc])];
  return zones
    .map((zone) => {
      const minutes = offsetMinutes(zone, at);
      return { o: minutes / 60, d: label(minutes, zone), a: abbreviation(zone, at), v: zone };
    })
    .sort((left, right) => left.o - right.o || left.v.localeCompare(right.v));
}
