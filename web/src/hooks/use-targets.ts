import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  actOnTarget,
  fetchTargetList,
  importSites,
  resumeHeldSites,
  type TargetAction,
  type TargetRow,
} from '../api/targets.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * The signed-in user's site list with the time it was read. Read afresh each time the dashboard
 * opens (the cached rows show meanwhile): opening a site's history clears its NEW flag, and the
 * detail page can pause or delete it.
 */
export function useTargetList(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.targetList,
    queryFn: ({ signal }) => fetchTargetList(signal),
    staleTime: 0,
    enabled: options.enabled ?? true,
  });
}

/**
 * Pause, resume or delete one site. Afterwards the list and user_info are read again, whether
 * it worked or not: usage and which paused sites can resume both follow from the change.
 */
export function useTargetAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, site }: { action: TargetAction; site: TargetRow }) => actOnTarget(action, site),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.targetList }),
        queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
      ]),
  });
}

/**
 * The refresh button: the list and user_info together, because usage follows the sites and
 * the account learns of them a moment after the target service does.
 */
export function useRefreshTargets() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.refetchQueries({ queryKey: queryKeys.targetList }),
      queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
    ]);
}

/** The bulk import; the new sites join the list and count in usage. */
export function useImportTargets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importSites,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.targetList }),
        queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
      ]),
  });
}

/** After a lifted hold: the sites it paused resume in one call; the list and usage follow. */
export function useResumeHeldSites() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeHeldSites,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.targetList }),
        queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
      ]),
  });
}
