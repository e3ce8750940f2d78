import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/client.ts';

/**
 * A 4xx answer (signed out, forbidden, not found, invalid) will not change by asking again,
 * so only network failures and server errors are retried.
 */
function shouldRetry(failureCount: number, error: Error): boolean {
  const clientError = error instanceof ApiError && error.status >= 400 && error.status < 500;
  return !clientError && failureCount < 2;
}

/**
 * docs/product.md#workspaces: a workspace that requires two-factor sign-in refuses a member without
 * a second factor on every screen's calls; they are taken to their security page, which says why
 * and is the one place (with switching workspace) that still answers.
 */
function sendToSecurityWhenRequired(error: Error): void {
  if (!(error instanceof ApiError) || error.code !== 'two_factor_required') return;
  if (window.location.pathname === '/security') return;
  window.location.assign('/security?required=1');
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: sendToSecurityWhenRequired }),
    mutationCache: new MutationCache({ onError: sendToSecurityWhenRequired }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
