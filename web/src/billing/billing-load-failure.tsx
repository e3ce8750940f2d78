import { useTranslation } from 'react-i18next';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';

/**
 * Billing could not be read: the spec's "card info could not be fetched" with a reload, or, on an
 * installation without payments, that plainly (reloading would not help).
 */
export function BillingLoadFailure({ error, onReload }: { error: unknown; onReload: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  if (errorCode(error) === 'billing_off') {
    return (
      <div className="notice" role="status">
        <p>{errorText(error)}</p>
      </div>
    );
  }
  return (
    <div className="notice" role="alert">
      <p>{t('billing.card.fetchFailed')}</p>
      <button type="button" className="button" onClick={onReload}>
        {t('actions.reload')}
      </button>
    </div>
  );
}
