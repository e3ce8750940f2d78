import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/client.ts';

/**
 * A 4xx answer (signed out, forbidden, not found, invalid) will not change by asking again,
 * so only network failures and server errors are retried.
 */
function shouldRetry(failureCount: number, error: Error): boolean {
  const clientError = error instanceof ApiError && error.status >= 400 && error.status < 500;
  return !clientError && failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
