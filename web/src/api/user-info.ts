import type { UserInfo } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/** user_info (docs/product.md#quotas), with its limits (`num`) and usage (`used_num`). */
export type { CikIsinItem, QuotaCounts, Subscription, TdnetEdinetItem, UserInfo } from '@mimamori/http-api';

/** GET /api/user_info; a signed-out visitor gets ApiError status 401, code `unauthenticated`. */
export function fetchUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  return apiRequest<UserInfo>('/api/user_info', signal ? { signal } : {});
}
