import { useTranslation } from 'react-i18next';
import { monitoringStopped, type SubscriptionState } from '../billing/subscription-state.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useResumeHeldSites, useTargetList } from '../hooks/use-targets.ts';

/**
 * A hold that was lifted (docs/product.md#subscription) leaves the sites it paused paused: this says
 * so and resumes them in one click, as far as the plan's free slots go, then tells what resumed and
 * what stays paused for want of a slot.
 */
export function HoldLiftedBanner({ state }: { state: SubscriptionState | null }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const list = useTargetList();
  const resume = useResumeHeldSites();
  const held = list.data?.targets.filter((site) => site.paused_for_hold).length ?? 0;
  const done = resume.data;
  if (!state || monitoringStopped(state) || state.kind === 'renewalFailed') return null;
  if (held === 0 && !done) return null;
  return (
    <div className="notice info hold-lifted" role="status" data-testid="hold-lifted-banner">
      {done ? (
        <div className="hold-lifted-outcome">
          {done.resumed > 0 && (
            <FormMessage
              tone="success"
              message={t('dashboard.subscription.resumedHeld', { count: done.resumed })}
            />
          )}
          {done.still_paused > 0 && (
            <p>{t('dashboard.subscription.stillPaused', { count: done.still_paused })}</p>
          )}
        </div>
      ) : (
        <p>{t('dashboard.subscription.holdLifted', { count: held })}</p>
      )}
      {resume.isError && (
        <FormMessage
          tone="error"
          message={`${t('dashboard.subscription.resumeHeldFailed')} ${errorText(resume.error)}`}
        />
      )}
      {!done && (
        <div className="button-row">
          <button
            type="button"
            className="button primary"
            disabled={resume.isPending}
            onClick={() => resume.mutate()}
          >
            {resume.isPending
              ? t('dashboard.subscription.resumingHeld')
              : t('dashboard.subscription.resumeHeld', { count: held })}
          </button>
        </div>
      )}
    </div>
  );
}
