import { useQuery } from '@tanstack/react-query';
import { fetchOperator } from '../api/operator.ts';
import { queryKeys } from '../query-keys.ts';

/** The seller's legal details; they change only with the installation's configuration. */
export function useOperator() {
  return useQuery({
    queryKey: queryKeys.operator,
    queryFn: ({ signal }) => fetchOperator(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
