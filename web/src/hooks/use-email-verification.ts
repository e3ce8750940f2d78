import { useQuery } from '@tanstack/react-query';
import { verifyEmail } from '../api/auth.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * Uses the verification link once per page: held as a query under its token so a re-render
 * (or React's strict-mode double effect) does not post it twice.
 */
export function useEmailVerification(token: string) {
  return useQuery({
    queryKey: queryKeys.emailVerification(token),
    queryFn: () => verifyEmail(token),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}
