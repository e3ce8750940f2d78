import { useTranslation } from 'react-i18next';
import type { Billing, PlanChangeTiming, PlanChoice } from '../api/billing.ts';
import { useTargetTime } from '../dashboard/use-target-time.ts';
import { useErrorText } from '../forms/use-error-text.ts';
import { usePlanChangePreview } from '../hooks/use-billing.ts';
import { usePlanText } from './use-plan-text.ts';

/**
 * What the chosen change costs, said before it is confirmed (docs/product.md#subscription): at once,
 * the provider's proration for the rest of the period (or a credit), or the new cycle's price less
 * the unused part; booked for the renewal, nothing now and the new price from that day; during the
 * trial, nothing until it ends.
 */
export function PlanChangePrice({
  billing,
  choice,
  timing,
  price,
}: {
  billing: Billing;
  choice: PlanChoice;
  timing: PlanChangeTiming;
  /** The new plan's price per cycle, as the plan table shows it. */
  price: string | null;
}) {
  const { t } = useTranslation();
  const time = useTargetTime();
  const errorText = useErrorText();
  const planText = usePlanText();
  const preview = usePlanChangePreview(choice, timing === 'now');
  let text: string;
  if (timing === 'renewal') {
    text = billing.period_end
      ? t('billing.planChange.previewRenewal', { date: time(billing.period_end), price: price ?? '—' })
      : t('billing.planChange.previewNothing');
  } else if (preview.isError) {
    text = `${t('billing.planChange.previewFailed')} ${errorText(preview.error)}`;
  } else if (!preview.data) {
    text = t('billing.planChange.previewLoading');
  } else {
    const { amount_now: amount, trial, period_end: periodEnd } = preview.data;
    const date = periodEnd ? time(periodEnd) : '';
    // With the tax it holds (総額表示).
    const money = planText.money(Math.abs(amount), billing.currency);
    const restarts = choice.cycle !== billing.plan.cycle;
    text = trial
      ? t('billing.planChange.previewTrial', { date })
      : amount > 0
        ? restarts
          ? t('billing.planChange.previewRestart', { amount: money, date })
          : t('billing.planChange.previewCharge', { amount: money, date })
        : amount < 0
          ? t('billing.planChange.previewCredit', { amount: money })
          : t('billing.planChange.previewNothing');
  }
  return (
    <p className="plan-change-price" role="status" aria-live="polite" data-testid="plan-change-price">
      {text}
    </p>
  );
}
