import { type Currency, type Cycle, formatPrice, isPlanId, PLANS } from '@mimamori/plans';
import { useTranslation } from 'react-i18next';
import type { PlanChoice } from '../api/billing.ts';
import { addOnsOf, customSites } from './custom-options.ts';

/** How the billing screens name a plan choice and a price in the current language. */
export function usePlanText() {
  const { t } = useTranslation();
  const planName = (plan: number): string => {
    const nameKey = isPlanId(plan) ? PLANS[plan].nameKey : undefined;
    return nameKey ? t(nameKey as 'plans.basic5') : '—';
  };
  return {
    planName,
    /** "Basic 5 (monthly)"; the custom plan also says how many sites its add-ons make. */
    choice(choice: PlanChoice): string {
      const name =
        choice.plan === 2
          ? `${planName(2)} ${t('plans.sites', { count: customSites(addOnsOf(choice.options)) })}`
          : planName(choice.plan);
      return `${name} (${t(`account.cycles.${choice.cycle}`)})`;
    },
    /** "¥980 / month", or nothing when the plan has no price to show. */
    price(amount: number | null, currency: Currency, cycle: Cycle): string | null {
      return amount === null
        ? null
        : t(`billing.perCycle.${cycle}`, { price: formatPrice(amount, currency) });
    },
  };
}
