import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AuditQuery, fetchAuditPage } from '../api/audit.ts';
import { queryKeys } from '../query-keys.ts';

/** One page of the audit log for a filter; the previous page stays shown while the next loads. */
export function useAuditPage(query: AuditQuery) {
  return useQuery({
    queryKey: queryKeys.auditLog(query),
    queryFn: ({ signal }) => fetchAuditPage(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
