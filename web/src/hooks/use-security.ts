import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  confirmTotp,
  disableTotp,
  endOtherSessions,
  endSession,
  fetchSecurity,
  fetchSessions,
  regenerateRecoveryCodes,
  removePasskey,
  startTotp,
} from '../api/security.ts';
import { queryKeys } from '../query-keys.ts';

export function useSecurity() {
  return useQuery({ queryKey: queryKeys.security, queryFn: ({ signal }) => fetchSecurity(signal) });
}

export function useSessions() {
  return useQuery({ queryKey: queryKeys.sessions, queryFn: ({ signal }) => fetchSessions(signal) });
}

/** A change to the second factors or the sessions: both are fetched again once it is done. */
function useSecurityChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.security }),
  });
}

export const useStartTotp = () => useMutation({ mutationFn: startTotp });
export const useConfirmTotp = () => useSecurityChange(confirmTotp);
export const useDisableTotp = () => useSecurityChange(disableTotp);
export const useRegenerateRecoveryCodes = () => useSecurityChange(regenerateRecoveryCodes);
export const useRemovePasskey = () => useSecurityChange(removePasskey);
export const useEndSession = () => useSecurityChange(endSession);
export const useEndOtherSessions = () => useSecurityChange(endOtherSessions);
