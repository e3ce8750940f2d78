import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Billing } from '../api/billing.ts';
import { BillingStatus, brandName, cardExpiry } from '../billing/billing-rules.ts';
import { CardOrderForm } from '../billing/card-order-form.tsx';
import { useTargetTime } from '../dashboard/use-target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useBilling } from '../hooks/use-billing.ts';
import { LegalLinks } from '../legal/legal-links.tsx';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import '../billing/billing.css';
import { BillingLoadFailure } from '../billing/billing-load-failure.tsx';

/**
 * Card registration (docs/product.md#subscription): after the trial monitoring waits for a card;
 * registering one resumes the subscription and pays anything open. What the success says depends on
 * where the account stood: during the trial, that nothing is charged until it ends; after a hold,
 * that the sites it paused stay paused until the user resumes them.
 */
export default function NewCardPage() {
  const { t } = useTranslation();
  const billing = useBilling();
  const [saved, setSaved] = useState<{ billing: Billing; statusBefore: number } | null>(null);
  const time = useTargetTime();

  if (billing.isError) {
    return (
      <Page title="newCard">
        <BillingLoadFailure error={billing.error} onReload={() => void billing.refetch()} />
      </Page>
    );
  }
  if (!billing.data) {
    return (
      <Page title="newCard">
        <LoadingIndicator />
      </Page>
    );
  }
  if (saved?.billing.card) {
    const { card, suspend_at: trialEnd } = saved.billing;
    const hint =
      saved.statusBefore === BillingStatus.trial && trialEnd
        ? t('billing.card.trialHint', { date: time(trialEnd) })
        : saved.statusBefore === BillingStatus.onHold
          ? t('billing.card.resumeHint')
          : null;
    return (
      <Page title="newCard">
        <div className="billing-done" data-form-message="">
          <FormMessage
            tone="success"
            message={t('billing.card.registered', {
              brand: brandName(card.brand),
              last4: card.last4,
              expiry: cardExpiry(card),
            })}
          />
          {hint && (
            <p className="field-hint" data-testid="card-saved-hint">
              {hint}
            </p>
          )}
          <p className="button-row">
            <Link className="button primary" to={routePaths.dashboard}>
              {t('billing.toDashboard')}
            </Link>
            <Link className="button" to={routePaths.account}>
              {t('billing.toAccount')}
            </Link>
          </p>
        </div>
      </Page>
    );
  }
  const data = billing.data;
  return (
    <Page title="newCard">
      <p className="lead">
        {data.status === BillingStatus.trial ? t('billing.card.leadTrial') : t('billing.card.lead')}
      </p>
      <div className="billing-panel">
        {data.card && (
          <p className="field-hint" data-testid="current-card">
            {t('billing.card.current', {
              brand: brandName(data.card.brand),
              last4: data.card.last4,
              expiry: cardExpiry(data.card),
            })}
          </p>
        )}
        <CardOrderForm
          billing={data}
          onDone={(next) => setSaved({ billing: next, statusBefore: data.status })}
        />
      </div>
      <LegalLinks />
    </Page>
  );
}
