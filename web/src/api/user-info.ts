import { apiRequest } from './client.ts';

/** Limits (`num`) and usage (`used_num`) per feature, keyed as user_info names them. */
export type QuotaCounts = {
  _60min: number;
  _10min: number;
  _1min: number;
  random_ip: number;
  ss: number;
  mail: number;
  line_notify: number;
};

export type Subscription = {
  price: number;
  status: number;
  suspend_at: string | null;
  s_info: { Plan: number; Cycle: string; Options: unknown } | null;
};

export type TdnetEdinetItem = { edinet: string; tdnet: string; name1: string };
export type CikIsinItem = { id: string; label: string; cik: string; ticker: string; isin: string };

/** user_info (docs/product.md#quotas, docs/product.md#subscription). */
export type UserInfo = {
  user_id: string;
  mails: string[];
  num: QuotaCounts;
  used_num: QuotaCounts;
  subscription: Subscription | null;
  has_pi: boolean;
  tdedinets: TdnetEdinetItem[];
  cik_isins: CikIsinItem[];
  locale: { Lang: string; Timezone: string; Currency: string };
  line_url: string;
  line_need_setting: boolean;
  /** Set when the account was deleted while this page was open. */
  deleted_user?: boolean;
};

/** GET /api/user_info; a signed-out visitor gets ApiError status 401, code `unauthenticated`. */
export function fetchUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  return apiRequest<UserInfo>('/api/user_info', signal ? { signal } : {});
}
