import { BILLED_PLANS, type Cycle, PLANS } from '@mimamori/plans';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Billing, PlanChangeTiming, PlanChoice } from '../api/billing.ts';
import { BillingStatus, inGoodStanding, samePlanChoice, timingChoices } from '../billing/billing-rules.ts';
import {
  addOnsOf,
  type CustomAddOns,
  customSites,
  NO_ADD_ONS,
  optionsOf,
} from '../billing/custom-options.ts';
import { CustomPlanFields } from '../billing/custom-plan-fields.tsx';
import { OrderConfirmation } from '../billing/order-confirmation.tsx';
import { planOrder } from '../billing/orders.ts';
import { PlanChangePrice } from '../billing/plan-change-price.tsx';
import { PlanLocked } from '../billing/plan-locked.tsx';
import { choicePrice } from '../billing/plan-price.ts';
import { ProjectRequestForm } from '../billing/project-request-form.tsx';
import { planLockReason } from '../billing/subscription-state.ts';
import { usePlanText } from '../billing/use-plan-text.ts';
import { useSubscriptionState } from '../billing/use-subscription-state.ts';
import { useTargetTime } from '../dashboard/use-target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import {
  useBilling,
  useCancelBookedChange,
  useChangePlan,
  usePlanChangePreview,
  usePlans,
} from '../hooks/use-billing.ts';
import { LegalLinks } from '../legal/legal-links.tsx';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import '../billing/billing.css';
import { BillingLoadFailure } from '../billing/billing-load-failure.tsx';

const CUSTOM = 2;

/**
 * After the subscription ended (9) a plan is ordered again (docs/product.md#subscription): paid at
 * once with the card on file, so a card comes first.
 */
function OrderAgain({ billing }: { billing: Billing }) {
  const { t } = useTranslation();
  return (
    <section className="order-again" aria-labelledby="again-title" data-testid="order-again">
      <h2 id="again-title" className="section-title">
        {t('billing.again.title')}
      </h2>
      <p>{t('billing.again.lead')}</p>
      {billing.card ? (
        <PlanChangeForm billing={billing} again />
      ) : (
        <div className="notice" role="status">
          <p>{t('billing.again.needCard')}</p>
          <Link className="button primary" to={routePaths.newCard}>
            {t('billing.registerCard')}
          </Link>
        </div>
      )}
    </section>
  );
}

/**
 * Plan change (docs/product.md#subscription): at once, the rest of the period offset pro rata, or
 * booked for the next renewal; during the trial always at once. A booked change can be withdrawn.
 */
export default function PlanChangePage() {
  const { t } = useTranslation();
  const billing = useBilling();
  const lock = planLockReason(useSubscriptionState());
  // Ordering again makes the subscription active, which swaps its form for the plan change's: the
  // page says it went through once the ended subscription it opened on is in good standing again.
  const wasEnded = useRef(false);
  if (billing.data?.status === BillingStatus.ended) wasEnded.current = true;
  const text = usePlanText();
  if (billing.isError) {
    return (
      <Page title="planChange">
        <BillingLoadFailure error={billing.error} onReload={() => void billing.refetch()} />
      </Page>
    );
  }
  if (!billing.data) {
    return (
      <Page title="planChange">
        <LoadingIndicator />
      </Page>
    );
  }
  return (
    <Page title="planChange">
      {wasEnded.current && inGoodStanding(billing.data) && (
        <FormMessage
          tone="success"
          message={t('billing.again.done', { plan: text.choice(billing.data.plan) })}
        />
      )}
      <CurrentPlan billing={billing.data} />
      {inGoodStanding(billing.data) ? (
        <PlanChangeForm billing={billing.data} />
      ) : billing.data.status === BillingStatus.ended ? (
        <OrderAgain billing={billing.data} />
      ) : (
        <PlanLocked reason={lock ?? 'renewFirst'} />
      )}
      <LegalLinks />
      <section className="billing-panel" aria-labelledby="project-title">
        <h2 id="project-title" className="section-title">
          {t('billing.project.title')}
        </h2>
        <ProjectRequestForm />
      </section>
    </Page>
  );
}

function CurrentPlan({ billing }: { billing: Billing }) {
  const { t } = useTranslation();
  const text = usePlanText();
  const time = useTargetTime();
  const plans = usePlans();
  const errorText = useErrorText();
  const cancelBooked = useCancelBookedChange();
  const price = plans.data ? choicePrice(plans.data, billing.plan, billing.currency) : null;
  const priceText = text.price(price, billing.currency, billing.plan.cycle);
  return (
    <section className="billing-panel" aria-labelledby="current-plan-title">
      <h2 id="current-plan-title" className="section-title">
        {t('billing.planChange.current')}
      </h2>
      <p data-testid="current-plan">
        {billing.status === BillingStatus.ended ? (
          t('billing.again.noPlan')
        ) : (
          <>
            {text.choice(billing.plan)}
            {priceText && <span className="muted"> · {priceText}</span>}
          </>
        )}
      </p>
      {billing.booked && (
        <div className="booked-change">
          <p data-testid="booked-plan">
            {billing.period_end
              ? t('billing.planChange.bookedOn', {
                  plan: text.choice(billing.booked),
                  date: time(billing.period_end),
                })
              : t('billing.planChange.booked', { plan: text.choice(billing.booked) })}
          </p>
          {cancelBooked.isError && <FormMessage tone="error" message={errorText(cancelBooked.error)} />}
          <button
            type="button"
            className="button"
            disabled={cancelBooked.isPending}
            onClick={() => cancelBooked.mutate()}
          >
            {t('billing.planChange.cancelBooked')}
          </button>
        </div>
      )}
    </section>
  );
}

function PlanChangeForm({ billing, again = false }: { billing: Billing; again?: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const text = usePlanText();
  const time = useTargetTime();
  const plans = usePlans();
  const change = useChangePlan();
  const timings: PlanChangeTiming[] = again ? ['now'] : timingChoices(billing);
  const [cycle, setCycle] = useState<Cycle>(billing.plan.cycle);
  const [plan, setPlan] = useState<number>(billing.plan.plan);
  const [addOns, setAddOns] = useState<CustomAddOns>(
    billing.plan.plan === CUSTOM ? addOnsOf(billing.plan.options) : NO_ADD_ONS,
  );
  const [timing, setTiming] = useState<PlanChangeTiming>('now');
  const choice: PlanChoice = { plan, cycle, options: plan === CUSTOM ? optionsOf(addOns) : [] };
  // Ordering again may choose the plan that ended.
  const unchanged = !again && samePlanChoice(choice, billing.plan);
  const priced = (candidate: PlanChoice) =>
    plans.data
      ? text.tablePrice(choicePrice(plans.data, candidate, billing.currency), billing.currency, cycle)
      : null;

  const when = timings.includes(timing) ? timing : 'now';
  // The price shown (PlanChangePrice asks the same query): confirming with its moment charges it.
  const preview = usePlanChangePreview(choice, !again && !unchanged && when === 'now');
  // A paid order (特定商取引法 12条の6): anything but a change during a trial without a card, which
  // charges nothing unless a card is registered later (that screen confirms its own order).
  const trial = billing.status === BillingStatus.trial;
  const paid = again || !trial || billing.card !== null;
  const order = paid && !unchanged ? planOrder(billing, choice, when, again, plans.data, preview.data) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (unchanged) return;
    const prorationDate = when === 'now' ? preview.data?.proration_date : undefined;
    change.mutate({ ...choice, timing: when, ...(prorationDate ? { proration_date: prorationDate } : {}) });
  };

  const applied = change.data;
  return (
    <form className="form billing-panel" onSubmit={submit} data-testid="plan-change-form">
      <h2 className="section-title">{t('billing.planChange.choose')}</h2>
      {change.isError && <FormMessage tone="error" message={errorText(change.error)} />}
      {applied && (
        <FormMessage
          tone="success"
          message={
            applied.booked
              ? t('billing.planChange.bookedDone', { plan: text.choice(applied.booked) })
              : t('billing.planChange.changedDone', { plan: text.choice(applied.plan) })
          }
        />
      )}
      <fieldset className="choice-list inline-choices">
        <legend className="field-label">{t('billing.cycle')}</legend>
        {(['month', 'year'] as const).map((option) => (
          <label key={option} className="checkbox">
            <input
              type="radio"
              name="cycle"
              value={option}
              checked={cycle === option}
              onChange={() => setCycle(option)}
            />
            {t(`billing.cycles.${option}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="plan-table priced">
        <legend className="field-label">{t('billing.planChange.plan')}</legend>
        {BILLED_PLANS.map((id) => {
          const candidate = { plan: id, cycle, options: id === CUSTOM ? optionsOf(addOns) : [] };
          const sites = id === CUSTOM ? customSites(addOns) : PLANS[id].sites;
          return (
            <label key={id} className="plan-row">
              <input type="radio" name="plan" value={id} checked={plan === id} onChange={() => setPlan(id)} />
              <span className="plan-name">
                {text.planName(id)}
                {id === billing.plan.plan && !again && (
                  <span className="badge">{t('billing.planChange.currentBadge')}</span>
                )}
              </span>
              <span className="plan-sites">{t('plans.sites', { count: sites })}</span>
              <span className="plan-price">{priced(candidate) ?? '—'}</span>
            </label>
          );
        })}
      </fieldset>
      <p className="field-hint">{text.tableNote(billing.currency)}</p>
      {plan === CUSTOM && <CustomPlanFields value={addOns} onChange={setAddOns} />}
      {timings.length > 1 ? (
        <fieldset className="choice-list">
          <legend className="field-label">{t('billing.planChange.when')}</legend>
          <label className="checkbox">
            <input
              type="radio"
              name="timing"
              value="now"
              checked={timing === 'now'}
              onChange={() => setTiming('now')}
            />
            {t('billing.planChange.now')}
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="timing"
              value="renewal"
              checked={timing === 'renewal'}
              onChange={() => setTiming('renewal')}
            />
            {billing.period_end
              ? t('billing.planChange.renewalOn', { date: time(billing.period_end) })
              : t('billing.planChange.renewal')}
          </label>
          <p className="field-hint">{t('billing.planChange.nowHint')}</p>
        </fieldset>
      ) : again ? null : (
        <p className="field-hint">
          {billing.status === BillingStatus.trial
            ? t('billing.planChange.trialHint')
            : t('billing.planChange.nowHint')}
        </p>
      )}
      {!unchanged && !again && (
        <PlanChangePrice billing={billing} choice={choice} timing={when} price={priced(choice)} />
      )}
      {order && <OrderConfirmation order={order} />}
      <p className="button-row">
        <button
          type="submit"
          className="button primary"
          disabled={unchanged || change.isPending}
          aria-describedby={unchanged ? 'plan-unchanged' : undefined}
        >
          {paid
            ? change.isPending
              ? t('billing.order.submitting')
              : t('billing.order.submit')
            : change.isPending
              ? t('actions.saving')
              : t('billing.planChange.submit')}
        </button>
      </p>
      {unchanged && (
        <p id="plan-unchanged" className="field-hint" data-testid="plan-unchanged">
          {t('billing.planChange.unchanged')}
        </p>
      )}
    </form>
  );
}
