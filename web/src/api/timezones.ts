import { apiRequest } from './client.ts';

/** One time zone choice (spec section 3): offset hours, label, abbreviation, IANA value. */
export type TimezoneOption = { o: number; d: string; a: string; v: string };

export function fetchTimezones(signal?: AbortSignal): Promise<TimezoneOption[]> {
  return apiRequest<TimezoneOption[]>('/static/timezones.json', signal ? { signal } : {});
}
