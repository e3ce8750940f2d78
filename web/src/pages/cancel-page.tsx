import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Billing, CANCELLATION_REASONS, type CancellationReason } from '../api/billing.ts';
import { canCancel, canUndoCancel } from '../billing/billing-rules.ts';
import { PlanLocked } from '../billing/plan-locked.tsx';
import { planLockReason } from '../billing/subscription-state.ts';
import { useSubscriptionState } from '../billing/use-subscription-state.ts';
import { useTargetTime } from '../dashboard/use-target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useBilling, useCancelSubscription, useUndoCancel } from '../hooks/use-billing.ts';
import { routePaths } from '../route-paths.ts';
import { AlertDialog } from '../shell/alert-dialog.tsx';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import '../billing/billing.css';
import { BillingLoadFailure } from '../billing/billing-load-failure.tsx';
import { LegalLinks } from '../legal/legal-links.tsx';

/**
 * Cancel (docs/product.md#subscription): the questionnaire, a confirmation, then service continues to
 * the period's end and the cancellation can be undone until then.
 */
export default function CancelPage() {
  const billing = useBilling();
  // Said on the questionnaire the page returns to, which the undo's own component no longer shows.
  const [undone, setUndone] = useState(false);
  const subscription = useSubscriptionState();
  const lock = planLockReason(subscription);
  if (billing.isError) {
    return (
      <Page title="cancel">
        <BillingLoadFailure error={billing.error} onReload={() => void billing.refetch()} />
      </Page>
    );
  }
  if (!billing.data) {
    return (
      <Page title="cancel">
        <LoadingIndicator />
      </Page>
    );
  }
  const data = billing.data;
  return (
    <Page title="cancel">
      {/* An ended subscription keeps the provider's cancel flag: it is over, not booked. */}
      {lock ? (
        <PlanLocked
          reason={lock}
          leaveBy={subscription?.kind === 'trialEnded' ? subscription.deleteAt : null}
        />
      ) : data.cancel_at_period_end ? (
        <CancelBooked billing={data} onUndone={() => setUndone(true)} />
      ) : canCancel(data) ? (
        <CancelForm billing={data} undone={undone} />
      ) : (
        <PlanLocked reason="renewFirst" />
      )}
      <LegalLinks />
    </Page>
  );
}

function CancelBooked({ billing, onUndone }: { billing: Billing; onUndone: () => void }) {
  const { t } = useTranslation();
  const time = useTargetTime();
  const errorText = useErrorText();
  const undo = useUndoCancel();
  return (
    <div className="billing-panel" data-testid="cancel-booked">
      <p>
        {billing.period_end
          ? t('billing.cancel.bookedUntil', { date: time(billing.period_end) })
          : t('billing.cancel.booked')}
      </p>
      {undo.isError && <FormMessage tone="error" message={errorText(undo.error)} />}
      {canUndoCancel(billing) && (
        <p className="button-row">
          <button
            type="button"
            className="button primary"
            disabled={undo.isPending}
            // The answer ends this view (no cancellation left), so per-call callbacks would never run.
            onClick={() => void undo.mutateAsync().then(onUndone, () => undefined)}
          >
            {t('billing.cancel.undo')}
          </button>
        </p>
      )}
    </div>
  );
}

function CancelForm({ billing, undone }: { billing: Billing; undone: boolean }) {
  const { t } = useTranslation();
  const time = useTargetTime();
  const errorText = useErrorText();
  const cancel = useCancelSubscription();
  const [reasons, setReasons] = useState<CancellationReason[]>([]);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const toggle = (reason: CancellationReason, on: boolean) => {
    setProblem(null);
    setReasons((chosen) => (on ? [...chosen, reason] : chosen.filter((other) => other !== reason)));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reasons.length === 0) {
      setProblem(t('billing.cancel.reasonRequired'));
      return;
    }
    setConfirming(true);
  };
  const confirm = () => {
    setConfirming(false);
    cancel.mutate({ reasons, comment: comment.trim() });
  };

  return (
    <form className="form billing-panel" noValidate onSubmit={submit} data-testid="cancel-form">
      <p className="lead">
        {billing.period_end
          ? t('billing.cancel.leadUntil', { date: time(billing.period_end) })
          : t('billing.cancel.lead')}
      </p>
      {undone && <FormMessage tone="success" message={t('billing.cancel.undone')} />}
      {cancel.isError && (
        <FormMessage tone="error" message={`${t('billing.cancel.failed')} ${errorText(cancel.error)}`} />
      )}
      <fieldset className="choice-list" aria-describedby={problem ? 'cancel-reason-error' : undefined}>
        <legend className="field-label">{t('billing.cancel.reasons')}</legend>
        {CANCELLATION_REASONS.map((reason) => (
          <label key={reason} className="checkbox">
            <input
              type="checkbox"
              name="reason"
              value={reason}
              checked={reasons.includes(reason)}
              onChange={(event) => toggle(reason, event.target.checked)}
            />
            {t(`billing.cancel.reason.${reason}`)}
          </label>
        ))}
        {problem && (
          <p id="cancel-reason-error" className="field-error" role="alert">
            {problem}
          </p>
        )}
      </fieldset>
      <div className="field">
        <label className="field-label" htmlFor="cancel-comment">
          {t('billing.cancel.comment')}
        </label>
        <textarea
          id="cancel-comment"
          className="input"
          rows={4}
          maxLength={2000}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
        />
      </div>
      <p className="button-row">
        <button type="submit" className="button danger" disabled={cancel.isPending}>
          {t('billing.cancel.submit')}
        </button>
        <Link className="button" to={routePaths.account}>
          {t('billing.cancel.keep')}
        </Link>
      </p>
      {confirming && (
        <AlertDialog
          message={
            billing.period_end
              ? t('billing.cancel.confirmUntil', { date: time(billing.period_end) })
              : t('billing.cancel.confirm')
          }
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="button" onClick={() => setConfirming(false)}>
                {t('billing.cancel.keep')}
              </button>
              <button type="button" className="button danger" onClick={confirm}>
                {t('billing.cancel.submit')}
              </button>
            </>
          }
        />
      )}
    </form>
  );
}
