import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Billing, TestCard } from '../api/billing.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useConfirmCard, useCreateSetupIntent } from '../hooks/use-billing.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import './billing.css';

/**
 * Registers or replaces the card (docs/product.md#subscription): a SetupIntent confirmed in the
 * browser, then the gateway makes it the default, resumes a paused subscription and pays what is
 * open. With Stripe that is Stripe's Payment Element; on the local stand-in, which has no Stripe
 * servers behind it, a clearly marked form picking one of Stripe's test cards.
 */
export function CardForm({
  billing,
  onDone,
  order = false,
}: {
  billing: Billing;
  onDone: (billing: Billing) => void;
  /** Saving the card places a paid order (shown above it): the button says so. */
  order?: boolean;
}) {
  const form = billing.card_form;
  if (form.kind === 'payment_element') {
    return <StripeCardForm publishableKey={form.publishable_key} onDone={onDone} order={order} />;
  }
  return <TestCardForm cards={form.cards} onDone={onDone} order={order} />;
}

/** The card form's button: a paid order says it is one (特定商取引法 12条の6). */
function useSubmitLabel(order: boolean) {
  const { t } = useTranslation();
  return (busy: boolean) =>
    order
      ? busy
        ? t('billing.order.submitting')
        : t('billing.order.submit')
      : busy
        ? t('billing.card.saving')
        : t('billing.card.save');
}

function TestCardForm({
  cards,
  onDone,
  order,
}: {
  cards: TestCard[];
  onDone: (billing: Billing) => void;
  order: boolean;
}) {
  const label = useSubmitLabel(order);
  const { t } = useTranslation();
  const errorText = useErrorText();
  const setupIntent = useCreateSetupIntent();
  const confirm = useConfirmCard();
  const [card, setCard] = useState<TestCard | undefined>(cards[0]);
  const busy = setupIntent.isPending || confirm.isPending;
  const failure = setupIntent.error ?? confirm.error;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!card) return;
    try {
      const intent = await setupIntent.mutateAsync();
      onDone(await confirm.mutateAsync({ setup_intent_id: intent.setup_intent_id, test_card: card }));
    } catch {
      // Shown from the mutations' state below.
    }
  };

  return (
    <form className="form card-form test-card-form" onSubmit={submit} data-testid="test-card-form">
      <p className="test-mode-badge">{t('billing.card.testMode')}</p>
      <p className="field-hint">{t('billing.card.testModeHint')}</p>
      {failure && (
        <FormMessage tone="error" message={`${t('billing.card.updateFailed')} ${errorText(failure)}`} />
      )}
      <fieldset className="choice-list">
        <legend className="field-label">{t('billing.card.testCard')}</legend>
        {cards.map((testCard) => (
          <label key={testCard} className="checkbox">
            <input
              type="radio"
              name="test-card"
              value={testCard}
              checked={card === testCard}
              onChange={() => setCard(testCard)}
            />
            {t(`billing.card.testCards.${testCard}`)}
          </label>
        ))}
      </fieldset>
      <p className="button-row">
        <button type="submit" className="button primary" disabled={busy}>
          {label(busy)}
        </button>
      </p>
    </form>
  );
}

/** One Stripe.js per key: loading it fetches Stripe's script, which only this form needs. */
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

function StripeCardForm({
  publishableKey,
  onDone,
  order,
}: {
  publishableKey: string;
  onDone: (billing: Billing) => void;
  order: boolean;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const setupIntent = useCreateSetupIntent();
  const { mutate } = setupIntent;
  // A fresh SetupIntent per form shown: a confirmed one cannot be confirmed again.
  useEffect(() => mutate(), [mutate]);

  if (setupIntent.isError) {
    return (
      <div className="notice" role="alert">
        <p>{`${t('billing.card.updateFailed')} ${errorText(setupIntent.error)}`}</p>
        <button type="button" className="button" onClick={() => mutate()}>
          {t('actions.retry')}
        </button>
      </div>
    );
  }
  if (!setupIntent.data) return <LoadingIndicator />;
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{ clientSecret: setupIntent.data.client_secret, locale: i18n.language === 'ja' ? 'ja' : 'en' }}
    >
      <PaymentElementForm setupIntentId={setupIntent.data.setup_intent_id} onDone={onDone} order={order} />
    </Elements>
  );
}

function PaymentElementForm({
  setupIntentId,
  onDone,
  order,
}: {
  setupIntentId: string;
  onDone: (billing: Billing) => void;
  order: boolean;
}) {
  const { t } = useTranslation();
  const label = useSubmitLabel(order);
  const errorText = useErrorText();
  const stripe = useStripe();
  const elements = useElements();
  const confirm = useConfirmCard();
  const [stripeError, setStripeError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busy = confirming || confirm.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setStripeError(null);
    setConfirming(true);
    const result = await stripe.confirmSetup({ elements, redirect: 'if_required' });
    setConfirming(false);
    if (result.error) {
      // Stripe's own message, already in the form's language, says what was wrong with the card.
      setStripeError(result.error.message ?? '');
      return;
    }
    // The answer may re-render the screen around this form; the promise outlives that.
    await confirm.mutateAsync({ setup_intent_id: setupIntentId }).then(onDone, () => undefined);
  };

  const failure =
    stripeError !== null
      ? `${t('billing.card.updateFailed')} ${stripeError}`
      : confirm.error && `${t('billing.card.updateFailed')} ${errorText(confirm.error)}`;
  return (
    <form className="form card-form" onSubmit={submit}>
      {failure && <FormMessage tone="error" message={failure} />}
      <PaymentElement />
      <p className="button-row">
        <button type="submit" className="button primary" disabled={!stripe || busy}>
          {label(busy)}
        </button>
      </p>
    </form>
  );
}
