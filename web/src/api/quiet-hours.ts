import type { QuietHoursJson } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type { QuietHoursJson } from '@mimamori/http-api';

/** GET /api/v2/quiet-hours: the account's quiet hours (docs/product.md#quiet-hours). */
export function fetchQuietHours(signal?: AbortSignal): Promise<QuietHoursJson> {
  return apiRequest<QuietHoursJson>('/api/v2/quiet-hours', signal ? { signal } : {});
}

/** Replaces them; refused with quiet_hours_time_invalid or quiet_hours_day_invalid. */
export function saveQuietHours(quiet: QuietHoursJson): Promise<QuietHoursJson> {
  return apiRequest('/api/v2/quiet-hours', { method: 'POST', body: quiet });
}
