import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createApiToken,
  fetchApiTokens,
  fetchFeedUrls,
  revokeApiToken,
  rotateFeedUrls,
} from '../api/api-access.ts';
import { queryKeys } from '../query-keys.ts';

export function useApiTokens() {
  return useQuery({ queryKey: queryKeys.apiTokens, queryFn: ({ signal }) => fetchApiTokens(signal) });
}

/** A change to the token list: it is fetched again once the change is done. */
function useApiTokenChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiTokens }),
  });
}

export const useCreateApiToken = () => useApiTokenChange(createApiToken);
export const useRevokeApiToken = () => useApiTokenChange(revokeApiToken);

export function useFeedUrls() {
  return useQuery({ queryKey: queryKeys.feedUrls, queryFn: ({ signal }) => fetchFeedUrls(signal) });
}

/** The new URLs replace the old in the cache at once: the old ones no longer work. */
export function useRotateFeedUrls() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateFeedUrls,
    onSuccess: (urls) => queryClient.setQueryData(queryKeys.feedUrls, urls),
  });
}
