import type { SupportFollowUp } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/** Support request types (docs/product.md#account), as the gateway names them. */
export const SUPPORT_TYPES = ['navigation', 'login_action', 'area', 'notification', 'other'] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];

/** POST /api/support: records the request and mails a confirmation with a follow-up link. */
export function sendSupportRequest(input: { type: SupportType; notes: string }): Promise<void> {
  return apiRequest<void>('/api/support', { method: 'POST', body: input });
}

export type { SupportFollowUp } from '@mimamori/http-api';

/** GET /api/req_support: the request behind a follow-up link; 404 support_link_expired when stale. */
export function fetchSupportFollowUp(token: string, signal?: AbortSignal): Promise<SupportFollowUp> {
  const path = `/api/req_support?token=${encodeURIComponent(token)}`;
  return apiRequest<SupportFollowUp>(path, signal ? { signal } : {});
}

export function submitSupportFollowUp(input: { token: string; notes: string }): Promise<void> {
  return apiRequest<void>('/api/req_support', { method: 'POST', body: input });
}
