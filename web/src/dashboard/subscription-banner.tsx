import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ReprocessButton } from '../billing/reprocess-button.tsx';
import type { SubscriptionState } from '../billing/subscription-state.ts';
import { routePaths } from '../route-paths.ts';
import { useTargetTime } from './use-target-time.ts';
import '../billing/billing.css';

type Action = { to: string; label: string };

/**
 * The subscription's banner (docs/product.md#subscription), one per state with the date it names and
 * what to do: the trial (harder in its last 3 days without a card), a booked cancellation, a failed
 * renewal, a hold, a trial that ended without a card, the end. An active subscription has nothing to
 * say. `compact` leaves out what only the dashboard needs to say (the trial with nothing to do).
 */
export function SubscriptionBanner({
  state,
  compact = false,
}: {
  state: SubscriptionState | null;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const time = useTargetTime();
  if (!state) return null;
  const registerCard = { to: routePaths.newCard, label: t('dashboard.subscription.registerCard') };
  const updateCard = { to: routePaths.account, label: t('billing.updateCard') };
  let text: string;
  let action: Action | null = null;
  let urgent = true;
  let reprocess = false;
  switch (state.kind) {
    case 'active':
      return null;
    case 'trial': {
      const date = state.trialEnd ? time(state.trialEnd) : '';
      if (state.card) {
        if (compact) return null;
        text = t('dashboard.subscription.trialWithCard', { date });
        action = { to: routePaths.account, label: t('dashboard.subscription.toAccount') };
        urgent = false;
      } else if (state.lastDays) {
        text = t('dashboard.subscription.trialLastDays', { date, count: state.daysLeft ?? 0 });
        action = registerCard;
      } else {
        if (compact) return null;
        text = t('dashboard.subscription.trial', { date });
        action = registerCard;
        urgent = false;
      }
      break;
    }
    case 'cancelling':
      if (compact) return null;
      text = t('dashboard.subscription.cancelling', {
        date: state.serviceUntil ? time(state.serviceUntil) : '',
      });
      action = { to: routePaths.cancel, label: t('dashboard.subscription.undoCancel') };
      urgent = false;
      break;
    case 'renewalFailed':
      if (state.card) {
        text = state.suspendAt
          ? t('dashboard.subscription.renewalFailed', { deadline: time(state.suspendAt) })
          : t('dashboard.subscription.renewalFailedNoDeadline');
        action = updateCard;
        reprocess = true;
      } else {
        text = t('dashboard.subscription.trialEndedCardNeeded');
        action = registerCard;
      }
      break;
    case 'onHold':
      text = t('dashboard.subscription.onHold');
      action = updateCard;
      reprocess = true;
      break;
    case 'trialEnded':
      text = state.deleteAt
        ? t('dashboard.subscription.trialEndedStopped', { deleteAt: time(state.deleteAt) })
        : t('dashboard.subscription.trialEndedStoppedNoDate');
      action = registerCard;
      break;
    case 'ended':
      text = t('dashboard.subscription.ended');
      action = { to: routePaths.planChange, label: t('dashboard.subscription.orderAgain') };
      break;
  }
  return (
    <div
      className={urgent ? 'notice subscription-banner' : 'notice info subscription-banner'}
      // A state that stops monitoring is announced; the trial's and a cancellation's notes are not.
      role={urgent ? 'alert' : 'status'}
      data-testid="subscription-banner"
      data-state={state.kind}
    >
      <p>{text}</p>
      <div className="button-row">
        {reprocess && <ReprocessButton />}
        {action && (
          <Link to={action.to} className={reprocess || !urgent ? 'button' : 'button primary'}>
            {action.label}
          </Link>
        )}
      </div>
    </div>
  );
}
