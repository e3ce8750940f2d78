import type { accountV1 } from '@mimamori/contracts';
import type { Quota } from '@mimamori/plans';
import type { UserInfoView } from '../domain/user-info.ts';

function toQuota(quota: Quota): accountV1.Quota {
  return {
    min60: quota._60min,
    min10: quota._10min,
    min1: quota._1min,
    randomIp: quota.random_ip,
    ss: quota.ss,
    mail: quota.mail,
    lineNotify: quota.line_notify,
  };
}

export function toUserInfo(view: UserInfoView): accountV1.UserInfo {
  const sub = view.subscription;
  return {
    userId: view.userId,
    mails: view.mails,
    num: toQuota(view.num),
    usedNum: toQuota(view.usedNum),
    subscription: sub
      ? {
          price: sub.price,
          status: sub.status,
          suspendAt: sub.suspendAt ?? undefined,
          sInfo: { plan: sub.plan, cycle: sub.cycle, options: sub.options },
        }
      : undefined,
    hasPi: view.hasPi,
    // Filings follows belong to the filings service; it fills these in when it exists.
    tdedinets: [],
    cikIsins: [],
    locale: view.locale,
    lineUrl: view.lineUrl,
    lineNeedSetting: view.lineNeedSetting,
    deletedUser: false,
  };
}

/** A session whose account ended: just the marker, on which the SPA reloads. */
export function deletedUserInfo(userId: string): accountV1.UserInfo {
  return {
    userId,
    mails: [],
    hasPi: false,
    tdedinets: [],
    cikIsins: [],
    lineUrl: '',
    lineNeedSetting: false,
    deletedUser: true,
  };
}
