import type { TimezoneOption } from '../api/timezones.ts';
import { browserTimezone } from '../signup/browser-timezone.ts';

/**
 * The picker's first choice (docs/product.md#time-zones): the browser's zone by name (Asia/Tokyo),
 * else its offset as an Etc/GMT zone. An offset that is not whole hours has none, so the first
 * listed zone with that offset stands in.
 */
export function defaultTimezone(
  options: readonly TimezoneOption[],
  now = new Date(),
  browserZone?: string,
): string {
  const zone = browserTimezone(now, browserZone);
  if (zone && options.some((option) => option.v === zone)) return zone;
  const hoursEast = -now.getTimezoneOffset() / 60;
  return options.find((option) => option.o === hoursEast)?.v ?? options[0]?.v ?? '';
}
