import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deleteChatLink,
  fetchChatLinks,
  linkChatByFields,
  startChatLink,
  testChatLink,
} from '../api/chat-links.ts';
import { queryKeys } from '../query-keys.ts';

/** The account's chat links; `waitingMs` polls while a code link waits for the chat to send its code. */
export function useChatLinks(options: { waitingMs?: number | false } = {}) {
  return useQuery({
    queryKey: queryKeys.chatLinks,
    queryFn: ({ signal }) => fetchChatLinks(signal),
    refetchInterval: options.waitingMs ?? false,
  });
}

/** A change to the list: it is fetched again once the change is done. */
function useChatLinkChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.chatLinks }),
  });
}

export const useLinkChatByFields = () => useChatLinkChange(linkChatByFields);
export const useDeleteChatLink = () => useChatLinkChange(deleteChatLink);
/** A dead answer breaks the link, so the list is read again after a test too. */
export const useTestChatLink = () => useChatLinkChange(testChatLink);
/** Stores only a code; the list changes when the platform brings it back. */
export const useStartChatLink = () => useMutation({ mutationFn: startChatLink });
