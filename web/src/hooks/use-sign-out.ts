import { useMutation } from '@tanstack/react-query';
import { signOut } from '../api/sign-out.ts';

/**
 * Logs out, then goes to / with a full page load: that drops every cached answer and all
 * in-memory state of the old session in one step, so nothing of it can show afterwards.
 */
export function useSignOut() {
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => window.location.assign('/'),
  });
}
