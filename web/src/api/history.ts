import { apiRequest } from './client.ts';
import type { SiteRow } from './targets.ts';

/** Version 1 sites (whole page, imported) live under /api; version 2 sites under /api/v2. */
export type SiteVersion = 1 | 2;

export type HistoryFilter = 'all' | 'update' | 'error';
export type HistoryDirection = 'older' | 'newer';

/** A piece of a diff line; changed pieces are the highlighted added or removed text. */
export type DiffSegment = { text: string; changed: boolean };
export type DiffSide = { line: number; segments: DiffSegment[] };

/**
 * A row of the watch engine's diff. 'modified' pairs an old and a new line; `changed` false marks
 * context (including moves the area options do not count), which is never highlighted.
 */
export type DiffRow = {
  kind: 'same' | 'modified' | 'added' | 'removed';
  changed: boolean;
  old: DiffSide | null;
  new: DiffSide | null;
};

export type AreaChange = {
  area_id: string;
  label: string;
  diff_text: string;
  added: string[];
  removed: string[];
  rows: DiffRow[];
};

export type MatchedCondition = {
  group_index: number;
  condition_index: number;
  area_id: string;
  operand: 'all' | 'new' | 'old';
  operator: string;
  value: string;
};

export type CheckError = {
  code: string;
  /** `errors.<code>`, or `errors.check_failed` for a code the gateway does not know. */
  message_key: string;
  /** Names the selector, status or address. */
  detail: string;
  http_status?: number;
};

export type SiteUpdate = {
  update_id: string;
  detected_at: string | null;
  notify: boolean;
  matched: MatchedCondition[];
  areas: AreaChange[];
  screenshots: { before: string | null; after: string | null };
};

export type HistoryOutcome = 'no_change' | 'update' | 'error';

export type HistoryEntry = {
  check_id: string;
  due_at: string | null;
  checked_at: string | null;
  outcome: HistoryOutcome;
  error: CheckError | null;
  update: SiteUpdate | null;
};

export type HistoryPage = {
  target: SiteRow;
  filter: HistoryFilter;
  day: string | null;
  /** The user's time zone, which `day` is read in. */
  time_zone: string;
  entries: HistoryEntry[];
  older_cursor: string | null;
  newer_cursor: string | null;
};

export type HistoryRequest = {
  id: string;
  filter: HistoryFilter;
  /** YYYY-MM-DD in the user's time zone; null for all days. */
  day: string | null;
  cursor: string | null;
  direction: HistoryDirection;
  size: number;
};

export type RegistrationArea = {
  area_id: string;
  label: string;
  text: string;
  recorded_at: string | null;
  screenshot: string | null;
};

export type RegistrationData = {
  target: SiteRow;
  areas: RegistrationArea[];
  page_screenshot: string | null;
};

const prefix = (version: SiteVersion) => (version === 1 ? '/api' : '/api/v2');

/** GET /api/v2/history (or /api/history for v1): one page, newest first; the first page clears NEW. */
export function fetchHistory(
  version: SiteVersion,
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
  version: SiteVersion,
  id: string,
  signal?: AbortSignal,
): Promise<RegistrationData> {
  const query = new URLSearchParams({ id });
  return apiRequest<RegistrationData>(
    `${prefix(version)}/registration_data?${query}`,
    signal ? { signal } : {},
  );
}
