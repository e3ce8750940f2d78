import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Billing } from '../api/billing.ts';
import { BillingStatus, brandName, cardExpiry } from '../billing/billing-rules.ts';
import { CardForm } from '../billing/card-form.tsx';
import { FormMessage } from '../forms/form-message.tsx';
import { useBilling } from '../hooks/use-billing.ts';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import '../billing/billing.css';
import { BillingLoadFailure } from '../billing/billing-load-failure.tsx';

/**
 * Card registration (docs/product.md#subscription): after the trial monitoring waits for a card;
 * registering one resumes the subscription and pays anything open. Sites paused by a hold stay
 * paused until the user resumes them, which the success message says.
 */
export default function NewCardPage() {
  const { t } = useTranslation();
  const billing = useBilling();
  const [saved, setSaved] = useState<Billing | null>(null);

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
  if (saved?.card) {
    return (
      <Page title="newCard">
        <div className="billing-done" data-form-message="">
          <FormMessage
            tone="success"
            message={t('billing.card.registered', {
              brand: brandName(saved.card.brand),
              last4: saved.card.last4,
              expiry: cardExpiry(saved.card),
            })}
          />
          <p className="field-hint">{t('billing.card.resumeHint')}</p>
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
        <CardForm billing={data} onDone={setSaved} />
      </div>
    </Page>
  );
}
