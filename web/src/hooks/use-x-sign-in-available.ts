import { useQuery } from '@tanstack/react-query';
import { fetchXSignInAvailable } from '../api/x-sign-in.ts';
import { queryKeys } from '../query-keys.ts';

/** Whether to offer sign-in with X; undefined while the gateway is being asked. */
export function useXSignInAvailable() {
  return useQuery({
    queryKey: queryKeys.xSignInAvailable,
    queryFn: ({ signal }) => fetchXSignInAvailable(signal),
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
}
