import type { UserInfo } from '@mimamori/http-api';
import { ApiError, apiRequest, readCookie } from './client.ts';

/** user_info (docs/product.md#quotas), with its limits (`num`) and usage (`used_num`). */
export type { CikIsinItem, QuotaCounts, Subscription, TdnetEdinetItem, UserInfo } from '@mimamori/http-api';

/**
 * The gateway's readable hint, set beside the session cookie at sign-in and cleared at sign-out:
 * without it there is no session to ask about, and a signed-out visitor's browser logs no 401.
 */
const SIGNED_IN_HINT_COOKIE = 'mimamori_signed_in';

/** GET /api/user_info; a signed-out visitor gets ApiError status 401, code `unauthenticated`. */
export async function fetchUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  if (readCookie(SIGNED_IN_HINT_COOKIE) === undefined) {
    throw new ApiError(401, 'unauthenticated', 'errors.unauthenticated');
  }
  try {
    return await apiRequest<UserInfo>('/api/user_info', signal ? { signal } : {});
  } catch (error) {
    // The session ended elsewhere (expired, signed out in another place): drop the stale hint.
    if (error instanceof ApiError && error.status === 401) {
      void window.cookieStore?.delete(SIGNED_IN_HINT_COOKIE);
    }
    throw error;
  }
}
