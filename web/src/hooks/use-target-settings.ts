import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchTargetSettings,
  registerTarget,
  type TargetSettingsInput,
  updateTarget,
} from '../api/target-settings.ts';
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
 * Registers a new site, or updates `id`. Afterwards the site list, the stored settings and
 * user_info (quota usage) are read again.
 */
export function useSaveTarget(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: TargetSettingsInput) =>
      id === null ? registerTarget(settings) : updateTarget(id, settings),
    onSuccess: (saved) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.targetList }),
        queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
        queryClient.invalidateQueries({ queryKey: queryKeys.targetSettings(saved.target_v2_id) }),
      ]),
  });
}
