import { PLANS, type Plan } from '@mimamori/plans';
import { useTranslation } from 'react-i18next';

/** The plans a trial can start on (3..11, docs/product.md#plans), in catalogue order. */
export const TRIAL_PLANS: Plan[] = Object.values(PLANS).filter((plan) => plan.id >= 3);

/**
 * The sign-up plan table as a radio group: name and site count per plan. The gateway serves
 * no price list to signed-out visitors, so prices are not shown here.
 */
export function PlanTable({ value, onChange }: { value: number; onChange: (plan: number) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="plan-table">
      <legend className="field-label">{t('signup.plan')}</legend>
      <div className="plan-table-head" aria-hidden="true">
        <span>{t('signup.planName')}</span>
        <span>{t('signup.planSites')}</span>
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
        </label>
      ))}
      <p className="field-hint">{t('signup.planNote')}</p>
    </fieldset>
  );
}
