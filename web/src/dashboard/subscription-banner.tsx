import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UserInfo } from '../api/user-info.ts';
import { ReprocessButton } from '../billing/reprocess-button.tsx';
import { routePaths } from '../route-paths.ts';
import { subscriptionNotice } from './subscription-notice.ts';
import { useTargetTime } from './use-target-time.ts';
import '../billing/billing.css';

/** The warning (docs/product.md#subscription) for a failed renewal (6) or a hold (7); nothing otherwise. */
export function SubscriptionBanner({ info }: { info: UserInfo }) {
  const { t } = useTranslation();
  const time = useTargetTime();
  const notice = subscriptionNotice(info);
  if (!notice) return null;
  const withCard = notice.kind === 'renewalFailed' || notice.kind === 'onHold';
  let text: string;
  let link: { to: string; label: string };
  // With a card on file the payment can be retried here; the card is changed on the account screen.
  const updateCard = { to: routePaths.account, label: t('billing.updateCard') };
  const registerCard = { to: routePaths.newCard, label: t('dashboard.subscription.registerCard') };
  switch (notice.kind) {
    case 'renewalFailed':
      text = notice.suspendAt
        ? t('dashboard.subscription.renewalFailed', { deadline: time(notice.suspendAt) })
        : t('dashboard.subscription.renewalFailedNoDeadline');
      link = updateCard;
      break;
    case 'onHold':
      text = t('dashboard.subscription.onHold');
      link = updateCard;
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
      <div className="button-row">
        {withCard && <ReprocessButton />}
        <Link to={link.to} className={withCard ? 'button' : 'button primary'}>
          {link.label}
        </Link>
      </div>
    </div>
  );
}
