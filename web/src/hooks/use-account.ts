import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AccountSettings,
  addMail,
  changeEmail,
  changePassword,
  fetchAccount,
  linkDiscord,
  removeMail,
  unlinkDiscord,
  updateAccount,
} from '../api/account.ts';
import { queryKeys } from '../query-keys.ts';

export function useAccount({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: queryKeys.account, queryFn: ({ signal }) => fetchAccount(signal), enabled });
}

/**
 * A change answered with the account: the answer becomes the cached account at once, and
 * user_info is fetched again because it carries the same locale, addresses and chat link.
 */
function useAccountChange<Input>(change: (input: Input) => Promise<AccountSettings>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async (account) => {
      queryClient.setQueryData(queryKeys.account, account);
      await queryClient.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
}

export const useUpdateAccount = () => useAccountChange(updateAccount);
export const useChangeEmail = () => useAccountChange(changeEmail);
export const useAddMail = () => useAccountChange(addMail);
export const useRemoveMail = () => useAccountChange(removeMail);
export const useLinkDiscord = () => useAccountChange(linkDiscord);
export const useUnlinkDiscord = () => useAccountChange(() => unlinkDiscord());

/** A password change ends the other sessions; has_password may flip for an X user. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account }),
  });
}
