import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UserInfo } from '../api/user-info.ts';
import { routePaths } from '../route-paths.ts';
import { subscriptionNotice } from './subscription-notice.ts';
import { useTargetTime } from './use-target-time.ts';

/** The warning (docs/product.md#subscription) for a failed renewal (6) or a hold (7); nothing otherwise. */
export function SubscriptionBanner({ info }: { info: UserInfo }) {
  const { t } = useTranslation();
  const time = useTargetTime();
  const notice = subscriptionNotice(info);
  if (!notice) return null;
  let text: string;
  let link: { to: string; label: string };
  const reprocess = { to: routePaths.account, label: t('dashboard.subscription.reprocess') };
  const registerCard = { to: routePaths.newCard, label: t('dashboard.subscription.registerCard') };
  switch (notice.kind) {
    case 'renewalFailed':
      text = notice.suspendAt
        ? t('dashboard.subscription.renewalFailed', { deadline: time(notice.suspendAt) })
        : t('dashboard.subscription.renewalFailedNoDeadline');
      link = reprocess;
      break;
    case 'onHold':
      text = t('dashboard.subscription.onHold');
      link = reprocess;
      break;
    case 'trialEndedCardNeeded':
      text = t('dashboard.subscription.trialEndedCardNeeded');
      link = registerCard;
      break;
    case 'trialEndedStopped':
      text = t('dashboard.subscription.trialEndedStopped');
      link = registerCard;
      break;
  }
  return (
    <div className="notice subscription-banner" role="alert" data-testid="subscription-banner">
      <p>{text}</p>
      <Link to={link.to} className="button primary">
        {link.label}
      </Link>
    </div>
  );
}
