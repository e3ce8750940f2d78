import { NO_QUOTA, type PlanPrices, planPrice, planQuota, type Quota, usedQuota } from '@mimamori/plans';
import { type AccountRecord, SubscriptionStatus } from './account-record.ts';

/** user_info (docs/product.md#quotas), before it is put on the wire. */
export interface UserInfoView {
  userId: string;
  mails: string[];
  num: Quota;
  usedNum: Quota;
  subscription: {
    price: number;
    status: number;
    suspendAt: Date | null;
    plan: number;
    cycle: string;
    options: string[];
  } | null;
  hasPi: boolean;
  locale: { lang: string; timezone: string; currency: string };
  lineUrl: string;
  lineNeedSetting: boolean;
}

/** Where the SPA sends the user to finish the chat link. */
const CHAT_LINK_PAGE = '/account';

export function toUserInfoView(account: AccountRecord, prices: PlanPrices): UserInfoView {
  const sub = account.subscription;
  const num =
    sub.status === 0 || sub.status === SubscriptionStatus.cancelled
      ? NO_QUOTA
      : planQuota(sub.plan, sub.options);
  const verifiedMails = account.mails.filter((mail) => mail.verified);
  // Site counts come from the target service's usage reports; addresses are ours.
  const usedNum = usedQuota(num, { ...NO_QUOTA, ...account.targetDemand, mail: verifiedMails.length });
  const lineNeedSetting = num.line_notify > 0 && account.discordState !== 'complete';
  return {
    userId: account.id,
    mails: [...(account.email ? [account.email] : []), ...verifiedMails.map((mail) => mail.email)],
    num,
    usedNum,
    subscription:
      sub.status === 0
        ? null
        : {
            price: planPrice(prices, sub.plan, sub.cycle, account.currency),
            status: sub.status,
            // During the trial monitoring stops at its end; after a failed renewal, at billing's
            // deadline; on hold, the account ends at the delete date.
            suspendAt:
              sub.status === SubscriptionStatus.trial
                ? sub.trialEndsAt
                : sub.status === SubscriptionStatus.renewalFailed
                  ? (sub.renewalSuspendAt ?? null)
                  : sub.deleteAt,
            plan: sub.plan,
            cycle: sub.cycle,
            options: sub.options,
          },
    hasPi: sub.hasCard,
    locale: { lang: account.lang, timezone: account.timezone ?? '', currency: account.currency },
    lineUrl: lineNeedSetting ? CHAT_LINK_PAGE : '',
    lineNeedSetting,
  };
}
