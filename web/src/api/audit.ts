import type { AuditPage, AuditQuery } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type { AuditAction, AuditEntry, AuditKind, AuditPage, AuditQuery } from '@mimamori/http-api';

/** The query string of a filter, without the empty fields. */
function search(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** GET /api/audit: one page (50) of the workspace's audit log, newest first. */
export function fetchAuditPage(query: AuditQuery, signal?: AbortSignal): Promise<AuditPage> {
  return apiRequest<AuditPage>(`/api/audit${search(query)}`, signal ? { signal } : {});
}

/** Where the filtered log downloads as CSV: a plain link, saved under the gateway's file name. */
export function auditCsvUrl(query: Omit<AuditQuery, 'page'>, lang: 'ja' | 'en'): string {
  return `/api/audit/csv${search({ ...query, lang })}`;
}
