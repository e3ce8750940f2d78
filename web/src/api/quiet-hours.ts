import type { AccountQuietHoursJson, QuietHoursJson } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type { AccountQuietHoursJson, QuietHoursJson } from '@mimamori/http-api';

/** GET /api/v2/quiet-hours: the account's quiet hours (docs/product.md#quiet-hours) and the settings' revision. */
export function fetchQuietHours(signal?: AbortSignal): Promise<AccountQuietHoursJson> {
  return apiRequest<AccountQuietHoursJson>('/api/v2/quiet-hours', signal ? { signal } : {});
}

/**
 * Replaces them from `revision` (the one the form started from); refused with
 * quiet_hours_time_invalid, quiet_hours_day_invalid, or 409 edit_conflict.
 */
export function saveQuietHours(quiet: QuietHoursJson & { revision: number }): Promise<AccountQuietHoursJson> {
  return apiRequest('/api/v2/quiet-hours', { method: 'POST', body: quiet });
}
