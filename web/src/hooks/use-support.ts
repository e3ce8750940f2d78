import { useMutation, useQuery } from '@tanstack/react-query';
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

/**
 * The link takes one follow-up; the request behind it is not read again afterwards, because the
 * spent link would then answer as expired while the page still thanks the user.
 */
export function useSubmitSupportFollowUp(token: string) {
  return useMutation({ mutationFn: (notes: string) => submitSupportFollowUp({ token, notes }) });
}
