import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routePaths } from '../route-paths.ts';
import type { planLockReason } from './subscription-state.ts';

/**
 * Why the plan cannot be changed or cancelled now (docs/product.md#subscription), with the way out:
 * a card after a trial that ended, the payment after a failed renewal or hold; an ended subscription
 * has none.
 */
export function PlanLocked({ reason }: { reason: NonNullable<ReturnType<typeof planLockReason>> }) {
  const { t } = useTranslation();
  return (
    <div className="notice" role="status" data-testid="plan-locked">
      <p>{t(`billing.${reason}`)}</p>
      {reason === 'registerCardFirst' ? (
        <Link className="button primary" to={routePaths.newCard}>
          {t('billing.registerCard')}
        </Link>
      ) : (
        <Link className="button" to={routePaths.account}>
          {t('billing.toAccount')}
        </Link>
      )}
    </div>
  );
}
