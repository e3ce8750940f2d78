import { apiRequest } from './client.ts';

/** One time zone choice (docs/product.md#time-zones): offset hours, label, abbreviation, IANA value. */
export type TimezoneOption = { o: number; d: string; a: string; v: string };

export function fetchTimezones(signal?: AbortSignal): Promise<TimezoneOption[]> {
  return apiRequest<TimezoneOption[]>('/static/timezones.json', signal ? { signal } : {});
}
