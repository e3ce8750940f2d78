import { isPlanId, PLANS } from '@mimamori/plans';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AccountSettings } from '../api/account.ts';
import { routePaths } from '../route-paths.ts';
import { AccountSection } from './account-section.tsx';

/** The subscription states (docs/product.md#subscription) as the account answer numbers them. */
const TRIAL = 1;

/**
 * The plan the account is on, with the places card registration, plan change and cancellation
 * take (their screens come with their own issues).
 */
export function SubscriptionSection({ account }: { account: AccountSettings }) {
  const { t, i18n } = useTranslation();
  const plan = isPlanId(account.plan) ? PLANS[account.plan] : undefined;
  const trialEnd =
    account.subscription_status === TRIAL && account.trial_ends_at
      ? new Intl.DateTimeFormat(i18n.resolvedLanguage, {
          dateStyle: 'long',
          ...(account.timezone && { timeZone: account.timezone }),
        }).format(new Date(account.trial_ends_at))
      : undefined;
  return (
    <AccountSection id="subscription" title={t('account.subscription')}>
      <dl className="summary">
        <dt>{t('account.plan')}</dt>
        <dd data-testid="account-plan">
          {plan?.nameKey ? t(plan.nameKey as 'plans.basic5') : '—'}
          {account.cycle === 'month' || account.cycle === 'year'
            ? ` (${t(`account.cycles.${account.cycle}`)})`
            : ''}
        </dd>
        {trialEnd && (
          <>
            <dt>{t('account.trialEnds')}</dt>
            <dd>{trialEnd}</dd>
          </>
        )}
      </dl>
      <p className="button-row subscription-links">
        <Link className="button" to={routePaths.newCard}>
          {t('pages.newCard')}
        </Link>
        <Link className="button" to={routePaths.planChange}>
          {t('pages.planChange')}
        </Link>
        <Link className="button" to={routePaths.cancel}>
          {t('pages.cancel')}
        </Link>
      </p>
    </AccountSection>
  );
}
