import { isCycle } from '@mimamori/plans';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AccountSettings } from '../api/account.ts';
import type { Billing } from '../api/billing.ts';
import {
  BillingStatus,
  brandName,
  canReprocess,
  cardExpiry,
  inGoodStanding,
  statusKey,
} from '../billing/billing-rules.ts';
import { CardOrderForm } from '../billing/card-order-form.tsx';
import { choicePrice } from '../billing/plan-price.ts';
import { ReprocessButton } from '../billing/reprocess-button.tsx';
import { planLockReason, type SubscriptionState, subscriptionState } from '../billing/subscription-state.ts';
import { usePlanText } from '../billing/use-plan-text.ts';
import { useTargetTime } from '../dashboard/use-target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useBilling, useCancelBookedChange, usePlans } from '../hooks/use-billing.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { LegalLinks } from '../legal/legal-links.tsx';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { AccountSection } from './account-section.tsx';
import '../billing/billing.css';

/**
 * The subscription as billing records it (docs/product.md#subscription): plan and price, status and
 * dates, a booked change, the card, and the places to change them. The account answer's plan stands
 * in while billing loads.
 */
export function SubscriptionSection({
  account,
  readOnly = false,
}: {
  account: AccountSettings;
  /** A member who is not the owner sees the subscription and none of the ways to change it. */
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const billing = useBilling();
  const info = useUserInfo().data;
  const state =
    info && billing.data
      ? subscriptionState({
          info,
          billing: billing.data,
          deleteAt: account.delete_at,
          now: new Date(billing.data.at),
        })
      : null;
  return (
    <AccountSection id="subscription" title={t('account.subscription')}>
      {errorCode(billing.error) === 'billing_off' ? (
        <PlanWithoutBilling account={account} />
      ) : billing.isError ? (
        <div className="notice" role="alert">
          <p>{t('billing.card.fetchFailed')}</p>
          <button type="button" className="button" onClick={() => void billing.refetch()}>
            {t('actions.reload')}
          </button>
        </div>
      ) : billing.data ? (
        <BillingSummary billing={billing.data} state={state} readOnly={readOnly} />
      ) : (
        <LoadingIndicator />
      )}
    </AccountSection>
  );
}

/** An installation without payments (no Stripe keys, not on loopback) still shows the plan. */
function PlanWithoutBilling({ account }: { account: AccountSettings }) {
  const { t } = useTranslation();
  const text = usePlanText();
  return (
    <dl className="summary">
      <dt>{t('account.plan')}</dt>
      <dd data-testid="account-plan">
        {text.planName(account.plan)}
        {isCycle(account.cycle) ? ` (${t(`account.cycles.${account.cycle}`)})` : ''}
      </dd>
    </dl>
  );
}

function BillingSummary({
  billing,
  state,
  readOnly,
}: {
  billing: Billing;
  state: SubscriptionState | null;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const text = usePlanText();
  const time = useTargetTime();
  const plans = usePlans();
  const [cardFormOpen, setCardFormOpen] = useState(false);
  // The status before the card was saved: a lifted hold leaves its sites paused, which is said.
  const [cardSavedFrom, setCardSavedFrom] = useState<number | null>(null);
  const price = plans.data ? choicePrice(plans.data, billing.plan, billing.currency) : null;
  const priceText = text.price(price, billing.currency, billing.plan.cycle);
  const cancelling = billing.cancel_at_period_end;
  const needsCard =
    state?.kind === 'trialEnded' ||
    (state?.kind === 'renewalFailed' && !state.card) ||
    (state?.kind === 'trial' && !state.card && state.lastDays);
  const lock = planLockReason(state);
  const deleteAt = state?.kind === 'trialEnded' || state?.kind === 'onHold' ? state.deleteAt : null;
  return (
    <>
      <dl className="summary billing-summary">
        <dt>{t('account.plan')}</dt>
        <dd data-testid="account-plan">
          {billing.status === BillingStatus.ended ? t('billing.again.noPlan') : text.choice(billing.plan)}
        </dd>
        {priceText && billing.status !== BillingStatus.ended && (
          <>
            <dt>{t('billing.price')}</dt>
            <dd data-testid="account-price">{priceText}</dd>
          </>
        )}
        <dt>{t('billing.status')}</dt>
        <dd data-testid="account-status">
          {t(`billing.statuses.${statusKey(billing.status)}`)}
          {state?.kind === 'cancelling' && ` · ${t('billing.cancelBooked')}`}
        </dd>
        {billing.status === BillingStatus.trial && billing.suspend_at && (
          <>
            <dt>{t('account.trialEnds')}</dt>
            <dd data-testid="account-trial-end">{time(billing.suspend_at)}</dd>
          </>
        )}
        {billing.status === BillingStatus.renewalFailed && billing.suspend_at && (
          <>
            <dt>{t('billing.suspendAt')}</dt>
            <dd data-testid="account-suspend-at">{time(billing.suspend_at)}</dd>
          </>
        )}
        {/* Only a subscription in good standing renews; a held or ended one has no next date to name. */}
        {billing.status === BillingStatus.active && !cancelling && billing.period_end && (
          <>
            <dt>{t('billing.nextRenewal')}</dt>
            <dd data-testid="account-renewal">{time(billing.period_end)}</dd>
          </>
        )}
        {state?.kind === 'cancelling' && state.serviceUntil && (
          <>
            <dt>{t('billing.serviceUntil')}</dt>
            <dd data-testid="account-service-until">{time(state.serviceUntil)}</dd>
          </>
        )}
        {deleteAt && (
          <>
            <dt>{t('billing.deleteAt')}</dt>
            <dd data-testid="account-delete-at">{time(deleteAt)}</dd>
          </>
        )}
        {/* What the account moves to when this period ends: none once a cancellation takes effect. */}
        {state?.kind === 'cancelling' && state.serviceUntil && (
          <>
            <dt>{t('billing.nextPlan')}</dt>
            <dd data-testid="account-next-plan">
              {t('billing.nextPlanNone', { date: time(state.serviceUntil) })}
            </dd>
          </>
        )}
        {billing.booked && (
          <>
            <dt>{t('billing.bookedChange')}</dt>
            <dd data-testid="account-booked">{text.choice(billing.booked)}</dd>
          </>
        )}
        <dt>{t('billing.card.title')}</dt>
        <dd data-testid="account-card">
          {billing.card
            ? t('billing.card.summary', {
                brand: brandName(billing.card.brand),
                last4: billing.card.last4,
                expiry: cardExpiry(billing.card),
              })
            : t('billing.card.none')}
        </dd>
      </dl>
      {billing.booked && !readOnly && <CancelBookedButton />}
      {cardSavedFrom !== null && <FormMessage tone="success" message={t('billing.card.saved')} />}
      {cardSavedFrom === BillingStatus.onHold && billing.status !== BillingStatus.onHold && (
        <p className="field-hint">{t('billing.card.heldHint')}</p>
      )}
      {canReprocess(billing) && !readOnly && <ReprocessButton />}
      {readOnly ? (
        <p className="field-hint" data-testid="subscription-owner-manages">
          {t('workspaces.ownerManagesBilling')}
        </p>
      ) : cardFormOpen ? (
        <div className="card-form-panel">
          <h3 className="subsection-title">
            {billing.card ? t('billing.card.update') : t('billing.card.register')}
          </h3>
          <CardOrderForm
            billing={billing}
            onDone={() => {
              setCardFormOpen(false);
              setCardSavedFrom(billing.status);
            }}
          />
          <p className="button-row">
            <button type="button" className="button" onClick={() => setCardFormOpen(false)}>
              {t('billing.close')}
            </button>
          </p>
        </div>
      ) : (
        <p className="button-row subscription-links">
          {/* After the end a card pays for nothing. */}
          {state?.kind !== 'ended' && (
            <button
              type="button"
              // The one thing that restarts monitoring, or keeps it past the trial, comes first.
              className={needsCard ? 'button primary' : 'button'}
              onClick={() => {
                setCardFormOpen(true);
                setCardSavedFrom(null);
              }}
            >
              {billing.card ? t('billing.card.update') : t('billing.card.register')}
            </button>
          )}
          {inGoodStanding(billing) && (
            <Link className="button" to={routePaths.planChange}>
              {t('pages.planChange')}
            </Link>
          )}
          {state?.kind === 'ended' && (
            <Link className="button primary" to={routePaths.planChange}>
              {t('billing.orderAgain')}
            </Link>
          )}
          {inGoodStanding(billing) && (
            <Link className="button" to={routePaths.cancel}>
              {cancelling ? t('billing.cancel.undo') : t('pages.cancel')}
            </Link>
          )}
        </p>
      )}
      <div className="subscription-hints">
        {state?.kind === 'trial' && !state.card && state.trialEnd && (
          <p className="field-hint" data-testid="account-hint">
            {t('billing.trialCardHint', { date: time(state.trialEnd) })}
          </p>
        )}
        {/* Why the plan cannot be changed or cancelled here: said, not only left out. */}
        {lock && (
          <p className="field-hint" data-testid="account-lock">
            {t(`billing.${lock}`)}
          </p>
        )}
        {state?.kind === 'trialEnded' && state.deleteAt && (
          <p className="field-hint">{t('billing.deleteAtHint', { date: time(state.deleteAt) })}</p>
        )}
      </div>
      <LegalLinks />
    </>
  );
}

function CancelBookedButton() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const cancelBooked = useCancelBookedChange();
  return (
    <>
      {cancelBooked.isError && <FormMessage tone="error" message={errorText(cancelBooked.error)} />}
      <p className="button-row">
        <button
          type="button"
          className="button"
          disabled={cancelBooked.isPending}
          onClick={() => cancelBooked.mutate()}
        >
          {t('billing.planChange.cancelBooked')}
        </button>
      </p>
    </>
  );
}
