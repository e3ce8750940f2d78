import type { WebhookList, WebhookTestResult, WebhookWithSecret } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type { Webhook, WebhookList, WebhookTestResult, WebhookWithSecret } from '@mimamori/http-api';

/**
 * GET /api/webhooks: the account's webhooks, account-wide and per site, never their secrets; and
 * in the single-process product on this machine, its own test receiver's URL (`try_url`).
 */
export function fetchWebhooks(signal?: AbortSignal): Promise<WebhookList> {
  return apiRequest<WebhookList>('/api/webhooks', signal ? { signal } : {});
}

/** Adds one for every site (targetId '') or one site; the answer carries its secret this once. */
export function createWebhook(input: { url: string; targetId: string }): Promise<WebhookWithSecret> {
  return apiRequest('/api/webhooks', {
    method: 'POST',
    body: { url: input.url, ...(input.targetId ? { target_id: input.targetId } : {}) },
  });
}

export function rotateWebhookSecret(id: string): Promise<WebhookWithSecret> {
  return apiRequest('/api/webhooks/rotate', { method: 'POST', body: { id } });
}

/** Posts a signed test delivery; answers what the receiver said. */
export function testWebhook(id: string): Promise<WebhookTestResult> {
  return apiRequest('/api/webhooks/test', { method: 'POST', body: { id } });
}

export function deleteWebhook(id: string): Promise<void> {
  return apiRequest('/api/webhooks/delete', { method: 'POST', body: { id } });
}
