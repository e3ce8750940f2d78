import type { accountV1 } from '@mimamori/contracts';
import type { AccountView } from '../domain/user-info.ts';

const noQuota: accountV1.Quota = { min60: 0, min10: 0, min1: 0, randomIp: 0, ss: 0, mail: 0, lineNotify: 0 };

export function toUserInfo(account: AccountView): accountV1.UserInfo {
  return {
    userId: account.id,
    mails: [account.email],
    num: noQuota,
    usedNum: noQuota,
    hasPi: false,
    tdedinets: [],
    cikIsins: [],
    locale: { lang: account.lang, timezone: account.timezone ?? '', currency: account.currency },
    lineUrl: '',
    lineNeedSetting: false,
  };
}
