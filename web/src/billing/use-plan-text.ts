import {
  type Currency,
  type Cycle,
  formatPrice,
  includedConsumptionTax,
  isPlanId,
  PLANS,
} from '@mimamori/plans';
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
  /**
   * What follows a price a consumer sees (総額表示, docs/product.md#prices): the consumption tax a
   * yen amount includes, or that a dollar amount is outside Japan's consumption tax.
   */
  const taxNote = (amount: number, currency: Currency): string => {
    const tax = includedConsumptionTax(amount, currency);
    return tax === null
      ? t('billing.tax.abroad')
      : t('billing.tax.included', { tax: formatPrice(tax, 'JPY') });
  };
  return {
    planName,
    /** "¥980（税込・うち消費税¥89）". */
    money: (amount: number, currency: Currency): string =>
      `${formatPrice(amount, currency)}${taxNote(amount, currency)}`,
    /** "Basic 5 (monthly)"; the custom plan also says how many sites its add-ons make. */
    choice(choice: PlanChoice): string {
      const name =
        choice.plan === 2
          ? `${planName(2)} ${t('plans.sites', { count: customSites(addOnsOf(choice.options)) })}`
          : planName(choice.plan);
      return `${name} (${t(`account.cycles.${choice.cycle}`)})`;
    },
    /**
     * "¥980 / 月（税込）" for a table of plans, whose note (`taxNote`) says what the prices include;
     * nothing when the plan has no price to show.
     */
    tablePrice(amount: number | null, currency: Currency, cycle: Cycle): string | null {
      if (amount === null) return null;
      // A dollar price carries no Japanese tax to mention; the table's note says so.
      const short = currency === 'JPY' ? t('billing.tax.includedShort') : '';
      return `${t(`billing.perCycle.${cycle}`, { price: formatPrice(amount, currency) })}${short}`;
    },
    /** What a table's prices include: the consumption tax in yen, none in dollars. */
    tableNote: (currency: Currency): string =>
      currency === 'JPY' ? t('billing.tax.noteJPY') : t('billing.tax.noteUSD'),
    /** "¥980 / 月（税込・うち消費税¥89）", or nothing when the plan has no price to show. */
    price(amount: number | null, currency: Currency, cycle: Cycle): string | null {
      return amount === null
        ? null
        : `${t(`billing.perCycle.${cycle}`, { price: formatPrice(amount, currency) })}${taxNote(amount, currency)}`;
    },
  };
}
