import type { EditConflict } from '@mimamori/http-api';

/** A failed API call, carrying the gateway's stable error code and the message key the SPA translates. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly messageKey: string;
  /** What the refusal names, when it names something (a field, or the filings source). */
  readonly field: string | undefined;
  /** A 409 edit_conflict's saved revision and the fields saved elsewhere (docs/api.md#edit-conflicts). */
  readonly conflict: EditConflict['conflict'] | undefined;

  constructor(
    status: number,
    code: string,
    messageKey: string,
    field?: string,
    conflict?: EditConflict['conflict'],
  ) {
    super(`API error ${status} ${code}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.messageKey = messageKey;
    this.field = field;
    this.conflict = conflict;
  }
}

const CSRF_COOKIE = 'csrf_token';
const CSRF_HEADER = 'x-csrf-token';

export type ApiRequest = {
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
};

/**
 * Calls the gateway on the same origin and returns the parsed JSON body.
 * State-changing calls echo the CSRF cookie in a header (double-submit protection).
 * Anything other than a 2xx answer throws an ApiError; a network failure throws
 * an ApiError with status 0 and code `network`.
 */
export async function apiRequest<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const method = request.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') {
    const token = readCookie(CSRF_COOKIE);
    if (token) headers[CSRF_HEADER] = token;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: request.body === undefined ? null : JSON.stringify(request.body),
      signal: request.signal ?? null,
    });
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new ApiError(0, 'network', 'errors.network');
  }
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export async function errorFrom(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  const answer = body as
    | {
        error?: { code?: unknown; message_key?: unknown; field?: unknown };
        conflict?: EditConflict['conflict'];
      }
    | undefined;
  const error = answer?.error;
  if (typeof error?.code === 'string' && typeof error.message_key === 'string') {
    const field = typeof error.field === 'string' ? error.field : undefined;
    const conflict = error.code === 'edit_conflict' ? answer?.conflict : undefined;
    return new ApiError(response.status, error.code, error.message_key, field, conflict);
  }
  // A proxy or crash page instead of the gateway's JSON: keep the status, use a generic message.
  return new ApiError(response.status, 'http_error', 'errors.internal');
}

export function readCookie(name: string): string | undefined {
  for (const pair of document.cookie.split('; ')) {
    const separator = pair.indexOf('=');
    if (pair.slice(0, separator) === name) return decodeURIComponent(pair.slice(separator + 1));
  }
  return undefined;
}
