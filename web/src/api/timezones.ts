import type { TimezoneChoice } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/** One time zone choice (docs/product.md#time-zones): offset hours, label, abbreviation, IANA value. */
export type TimezoneOption = TimezoneChoice;

export function fetchTimezones(signal?: AbortSignal): Promise<TimezoneOption[]> {
  return apiRequest<TimezoneOption[]>('/static/timezones.json', signal ? { signal } : {});
}
