import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchSupportFollowUp, sendSupportRequest, submitSupportFollowUp } from '../api/support.ts';
import { queryKeys } from '../query-keys.ts';

export function useSendSupportRequest() {
  return useMutation({ mutationFn: sendSupportRequest });
}

export function useSupportFollowUp(token: string) {
  return useQuery({
    queryKey: queryKeys.supportFollowUp(token),
    queryFn: ({ signal }) => fetchSupportFollowUp(token, signal),
    enabled: token !== '',
  });
}

/** The link takes one follow-up, so the request behind it is read again afterwards. */
export function useSubmitSupportFollowUp(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (notes: string) => submitSupportFollowUp({ token, notes }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.supportFollowUp(token) }),
  });
}
