import type {
  HistoryDirection,
  HistoryFilter,
  HistoryPage,
  RegistrationData,
  StorageUsed,
  TargetVersion,
} from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/** The site detail's answers, as the gateway defines them. */
export type {
  AreaUpdate,
  CheckError,
  DiffRow,
  DiffSegment,
  DiffSide,
  HistoryDirection,
  HistoryEntry,
  HistoryFilter,
  HistoryOutcome,
  HistoryPage,
  MatchedCondition,
  RegistrationArea,
  RegistrationData,
  TargetUpdate,
  TargetVersion,
} from '@mimamori/http-api';

export type HistoryRequest = {
  id: string;
  filter: HistoryFilter;
  /** YYYY-MM-DD in the user's time zone; null for all days. */
  day: string | null;
  cursor: string | null;
  direction: HistoryDirection;
  size: number;
};

const prefix = (version: TargetVersion) => (version === 1 ? '/api' : '/api/v2');

/** GET /api/v2/history (or /api/history for v1): one page, newest first; the first page clears NEW. */
export function fetchHistory(
  version: TargetVersion,
  request: HistoryRequest,
  signal?: AbortSignal,
): Promise<HistoryPage> {
  const query = new URLSearchParams({
    id: request.id,
    filter: request.filter,
    direction: request.direction,
    size: String(request.size),
  });
  if (request.day) query.set('day', request.day);
  if (request.cursor) query.set('cursor', request.cursor);
  return apiRequest<HistoryPage>(`${prefix(version)}/history?${query}`, signal ? { signal } : {});
}

/** GET /api/v2/registration_data (or /api/registration_data): each area's first recorded text. */
export function fetchRegistrationData(
  version: TargetVersion,
  id: string,
  signal?: AbortSignal,
): Promise<RegistrationData> {
  const query = new URLSearchParams({ id });
  return apiRequest<RegistrationData>(
    `${prefix(version)}/registration_data?${query}`,
    signal ? { signal } : {},
  );
}

/** GET /api/account/storage: what the account's history takes (docs/product.md#history). */
export function fetchStorageUsed(signal?: AbortSignal): Promise<StorageUsed> {
  return apiRequest<StorageUsed>('/api/account/storage', signal ? { signal } : {});
}
