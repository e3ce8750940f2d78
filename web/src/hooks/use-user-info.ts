import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from '../api/client.ts';
import { fetchUserInfo } from '../api/user-info.ts';
import { queryKeys } from '../query-keys.ts';

/** The signed-in user's user_info; a signed-out visitor ends in an error with `isSignedOut`. */
export function useUserInfo() {
  const query = useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: ({ signal }) => fetchUserInfo(signal),
  });
  const deleted = query.data?.deleted_user === true;
  useEffect(() => {
    // An account deleted elsewhere (docs/product.md#account): start over from a fresh page.
    if (deleted) window.location.reload();
  }, [deleted]);
  return { ...query, isSignedOut: isUnauthenticated(query.error) };
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
