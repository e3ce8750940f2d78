import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchQuietHours, saveQuietHours } from '../api/quiet-hours.ts';
import { queryKeys } from '../query-keys.ts';

export function useQuietHours() {
  return useQuery({ queryKey: queryKeys.quietHours, queryFn: ({ signal }) => fetchQuietHours(signal) });
}

export function useSaveQuietHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveQuietHours,
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.quietHours, saved),
  });
}
