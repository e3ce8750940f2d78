import { useQuery } from '@tanstack/react-query';
import { fetchTimezones } from '../api/timezones.ts';
import { queryKeys } from '../query-keys.ts';

/** The time zone choices; static for the life of the page once loaded. */
export function useTimezones() {
  return useQuery({
    queryKey: queryKeys.timezones,
    queryFn: ({ signal }) => fetchTimezones(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
