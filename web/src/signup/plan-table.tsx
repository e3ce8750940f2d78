import { PLANS, type Plan } from '@mimamori/plans';
import { useTranslation } from 'react-i18next';
import { planOnlyPrice, visitorCurrency } from '../billing/plan-price.ts';
import { usePlanText } from '../billing/use-plan-text.ts';
import { usePlans } from '../hooks/use-billing.ts';
import '../billing/billing.css';

/** The plans a trial can start on (3..11, docs/product.md#plans), in catalogue order. */
export const TRIAL_PLANS: Plan[] = Object.values(PLANS).filter((plan) => plan.id >= 3);

/**
 * The sign-up plan table as a radio group: name, site count and monthly price per plan. Prices come
 * from the public plans endpoint, in yen for a Japanese visitor and dollars otherwise; while they
 * load, or when they cannot be read, the table shows plans without prices.
 */
export function PlanTable({ value, onChange }: { value: number; onChange: (plan: number) => void }) {
  const { t, i18n } = useTranslation();
  const text = usePlanText();
  const plans = usePlans();
  const currency = visitorCurrency(i18n.resolvedLanguage);
  const priceOf = (plan: Plan) =>
    plans.data
      ? text.tablePrice(planOnlyPrice(plans.data, plan.id, 'month', currency), currency, 'month')
      : null;
  const priced = TRIAL_PLANS.some((plan) => priceOf(plan) !== null);
  return (
    <fieldset className={priced ? 'plan-table priced' : 'plan-table'}>
      <legend className="field-label">{t('signup.plan')}</legend>
      <div className="plan-table-head" aria-hidden="true">
        <span>{t('signup.planName')}</span>
        <span>{t('signup.planSites')}</span>
        {priced && <span>{t('signup.planPrice')}</span>}
      </div>
      {TRIAL_PLANS.map((plan) => (
        <label key={plan.id} className="plan-row">
          <input
            type="radio"
            name="plan"
            value={plan.id}
            checked={value === plan.id}
            onChange={() => onChange(plan.id)}
          />
          <span className="plan-name">{t(plan.nameKey as 'plans.basic5')}</span>
          <span className="plan-sites">{t('plans.sites', { count: plan.sites })}</span>
          {priced && (
            <span className="plan-price" data-testid={`plan-price-${plan.id}`}>
              {priceOf(plan) ?? '—'}
            </span>
          )}
        </label>
      ))}
      <p className="field-hint">
        {priced ? `${t('billing.signupNote')} ${text.tableNote(currency)}` : t('signup.planNote')}
      </p>
    </fieldset>
  );
}
