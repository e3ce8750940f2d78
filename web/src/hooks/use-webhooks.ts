import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createWebhook,
  deleteWebhook,
  fetchWebhooks,
  rotateWebhookSecret,
  testWebhook,
} from '../api/webhooks.ts';
import { queryKeys } from '../query-keys.ts';

export function useWebhooks() {
  return useQuery({ queryKey: queryKeys.webhooks, queryFn: ({ signal }) => fetchWebhooks(signal) });
}

/** A change to the list: it is fetched again once the change is done. */
function useWebhookChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks }),
  });
}

export const useCreateWebhook = () => useWebhookChange(createWebhook);
export const useRotateWebhookSecret = () => useWebhookChange(rotateWebhookSecret);
export const useDeleteWebhook = () => useWebhookChange(deleteWebhook);
/** Changes nothing stored: the answer is shown where the button is. */
export const useTestWebhook = () => useMutation({ mutationFn: testWebhook });
