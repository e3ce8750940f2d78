import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchHistory,
  fetchRegistrationData,
  fetchStorageUsed,
  type HistoryRequest,
  type TargetVersion,
} from '../api/history.ts';
import { actOnTarget, type TargetAction } from '../api/targets.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * One page of a site's history; the previous page stays on screen while the next one loads.
 * Reading the first page clears the site's NEW flag on the server, so the site list is marked
 * stale once it has: a dashboard reopened while that read was still on its way reads it again.
 */
export function useHistory(version: TargetVersion, request: HistoryRequest) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.targetHistoryPage(version, request.id, request),
    queryFn: async ({ signal }) => {
      const page = await fetchHistory(version, request, signal);
      if (!request.cursor) void queryClient.invalidateQueries({ queryKey: queryKeys.targetList });
      return page;
    },
    placeholderData: keepPreviousData,
  });
}

export function useRegistrationData(version: TargetVersion, id: string) {
  return useQuery({
    queryKey: queryKeys.registrationData(version, id),
    queryFn: ({ signal }) => fetchRegistrationData(version, id, signal),
  });
}

/**
 * Pause, resume or delete. User info is reloaded after each (docs/product.md#targets: quotas change); the
 * site's history pages are refetched after a pause or resume, whose state the header shows.
 */
export function useTargetAction(version: TargetVersion, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: TargetAction) => actOnTarget(action, { id, ver: version }),
    onSettled: async (_data, _error, action) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
        action === 'delete'
          ? undefined
          : queryClient.invalidateQueries({ queryKey: queryKeys.siteHistory(version, id) }),
      ]);
    },
  });
}

/** What the account's history takes, for the account screen. */
export function useStorageUsed() {
  return useQuery({ queryKey: queryKeys.storageUsed, queryFn: ({ signal }) => fetchStorageUsed(signal) });
}
