import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestPasswordReset, resetPassword, signIn, signUp } from '../api/auth.ts';
import { queryKeys } from '../query-keys.ts';

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}

/** Signing in changes who user_info and the account belong to, so both are fetched afresh. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: queryKeys.account });
      await queryClient.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
