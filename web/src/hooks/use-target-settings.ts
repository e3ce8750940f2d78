import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchTargetSettings,
  registerTarget,
  type TargetSettingsInput,
  updateTarget,
} from '../api/target-settings.ts';
import type { TargetList } from '../api/targets.ts';
import { queryKeys } from '../query-keys.ts';

/** A v2 site's stored settings, for the wizard's edit mode; idle without an id. */
export function useTargetSettings(id: string | null) {
  return useQuery({
    queryKey: queryKeys.targetSettings(id ?? ''),
    queryFn: ({ signal }) => fetchTargetSettings(id ?? '', signal),
    enabled: id !== null,
    // The wizard edits a copy; a refetch on focus would not replace what the user is editing.
    refetchOnWindowFocus: false,
  });
}

/**
 * Registers a new site, or updates `id` from `revision` (the one its edit started from). The
 * saved row goes into the site list at once, and everything that shows the site is read again
 * (the detail page's history carries its label), so no screen shows the old settings after a save.
 */
export function useSaveTarget(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ settings, revision }: { settings: TargetSettingsInput; revision: number }) =>
      id === null ? registerTarget(settings) : updateTarget(id, settings, revision),
    onSuccess: (saved) => {
      const row = saved.target;
      if (row)
        queryClient.setQueryData<TargetList>(queryKeys.targetList, (list) =>
          list
            ? { ...list, targets: list.targets.map((target) => (target.id === row.id ? row : target)) }
            : list,
        );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.targetList }),
        queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
        queryClient.invalidateQueries({ queryKey: queryKeys.targetSettings(saved.target_v2_id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.siteHistory(2, saved.target_v2_id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.registrationData(2, saved.target_v2_id) }),
      ]);
    },
  });
}
