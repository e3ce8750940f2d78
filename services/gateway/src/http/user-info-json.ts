import type { accountV1, filingsV1 } from '@mimamori/contracts';
import type { QuotaCounts, UserInfo } from '@mimamori/http-api';

/** user_info exactly as the SPA reads it (snake_case, `_60min`-style quota keys). */
export function toUserInfoJson(info: accountV1.UserInfo): UserInfo {
  return {
    user_id: info.userId,
    mails: info.mails,
    num: toQuotaJson(info.num),
    used_num: toQuotaJson(info.usedNum),
    subscription: info.subscription
      ? {
          price: info.subscription.price,
          status: info.subscription.status,
          suspend_at: info.subscription.suspendAt?.toISOString() ?? null,
          s_info: info.subscription.sInfo
            ? {
                Plan: info.subscription.sInfo.plan,
                Cycle: info.subscription.sInfo.cycle,
                Options: info.subscription.sInfo.options,
              }
            : null,
        }
      : null,
    has_pi: info.hasPi,
    tdedinets: info.tdedinets.map((item) => ({ edinet: item.edinet, tdnet: item.tdnet, name1: item.name1 })),
    cik_isins: info.cikIsins.map((item) => ({
      id: item.id,
      label: item.label,
      cik: item.cik,
      ticker: item.ticker,
      isin: item.isin,
    })),
    locale: {
      Lang: info.locale?.lang ?? 'ja',
      Timezone: info.locale?.timezone ?? '',
      Currency: info.locale?.currency ?? 'JPY',
    },
    line_url: info.lineUrl,
    line_need_setting: info.lineNeedSetting,
    // Only present when the account ended under a live session; the SPA then reloads.
    ...(info.deletedUser ? { deleted_user: true as const } : {}),
  };
}

function toQuotaJson(quota: accountV1.Quota | undefined): QuotaCounts {
  return {
    _60min: quota?.min60 ?? 0,
    _10min: quota?.min10 ?? 0,
    _1min: quota?.min1 ?? 0,
    random_ip: quota?.randomIp ?? 0,
    ss: quota?.ss ?? 0,
    mail: quota?.mail ?? 0,
    line_notify: quota?.lineNotify ?? 0,
  };
}

/** A TDnet/EDINET item as the spec names its fields. */
export const tdedinetJson = (item: filingsV1.FollowItem) => ({
  edinet: item.edinetCode,
  tdnet: item.tdnetCode,
  name1: item.label,
});

/** A CIK/ISIN item as the spec names its fields. */
export const cikIsinJson = (item: filingsV1.FollowItem) => ({
  id: item.id,
  label: item.label,
  cik: item.cik,
  ticker: item.ticker,
  isin: item.isin,
});

/** user_info's tdedinets and cik_isins from the user's follows. */
export function followsJson(
  follows: filingsV1.ListFollowsResponse,
): Pick<UserInfo, 'tdedinets' | 'cik_isins'> {
  return { tdedinets: follows.tdedinets.map(tdedinetJson), cik_isins: follows.cikIsins.map(cikIsinJson) };
}
