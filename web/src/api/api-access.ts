import type { ApiToken, ApiTokenList, ApiTokenScope, ApiTokenWithSecret, FeedUrls } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type { ApiToken, ApiTokenScope, ApiTokenWithSecret, FeedUrls } from '@mimamori/http-api';

/** GET /api/tokens: the account's API tokens, expired ones included; never their secrets. */
export function fetchApiTokens(signal?: AbortSignal): Promise<ApiToken[]> {
  return apiRequest<ApiTokenList>('/api/tokens', signal ? { signal } : {}).then((list) => list.tokens);
}

/** Makes a token; the answer carries its secret this once. */
export function createApiToken(input: {
  name: string;
  scopes: ApiTokenScope[];
  expiresInDays: number;
}): Promise<ApiTokenWithSecret> {
  return apiRequest('/api/tokens', {
    method: 'POST',
    body: { name: input.name, scopes: input.scopes, expires_in_days: input.expiresInDays },
  });
}

export function revokeApiToken(id: string): Promise<void> {
  return apiRequest('/api/tokens/revoke', { method: 'POST', body: { id } });
}

/** GET /api/feeds: the account's secret feed URLs, made on first ask. */
export function fetchFeedUrls(signal?: AbortSignal): Promise<FeedUrls> {
  return apiRequest('/api/feeds', signal ? { signal } : {});
}

/** New feed URLs; the old ones stop at once. */
export function rotateFeedUrls(): Promise<FeedUrls> {
  return apiRequest('/api/feeds/rotate', { method: 'POST' });
}
