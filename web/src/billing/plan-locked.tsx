import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTargetTime } from '../dashboard/use-target-time.ts';
import { routePaths } from '../route-paths.ts';
import type { planLockReason } from './subscription-state.ts';

/**
 * Why the plan cannot be changed or cancelled now (docs/product.md#subscription), with the way out:
 * a card after a trial that ended, the payment after a failed renewal or hold; an ended subscription
 * has none.
 */
export function PlanLocked({
  reason,
  leaveBy,
}: {
  reason: NonNullable<ReturnType<typeof planLockReason>>;
  /** On the cancel screen after a trial without a card: leaving takes nothing but this date passing. */
  leaveBy?: string | null | undefined;
}) {
  const { t } = useTranslation();
  const time = useTargetTime();
  return (
    <div className="notice" role="status" data-testid="plan-locked">
      <div className="plan-locked-text">
        <p>{t(`billing.${reason}`)}</p>
        {leaveBy && <p>{t('billing.cancel.leaveByDeleteDate', { date: time(leaveBy) })}</p>}
      </div>
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
