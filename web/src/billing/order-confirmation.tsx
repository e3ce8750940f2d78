import { CYCLE_DAYS } from '@mimamori/plans';
import { useTranslation } from 'react-i18next';
import { useTargetTime } from '../dashboard/use-target-time.ts';
import { LegalLinks } from '../legal/legal-links.tsx';
import type { Order } from './orders.ts';
import { usePlanText } from './use-plan-text.ts';

/**
 * A paid order shown as the final-confirmation rule (特定商取引法 12条の6, docs/legal.md) asks,
 * before the button that places it: what is ordered and its period, the price with tax, what is
 * charged now and when each later charge comes, the trial's end and the price after it, that it
 * renews automatically and how to stop it, how to cancel, when the service starts and how it is
 * paid. All of it above the button, in the same type as the rest of the form.
 */
export function OrderConfirmation({ order }: { order: Order }) {
  const { t } = useTranslation();
  const text = usePlanText();
  const time = useTargetTime();
  const days = CYCLE_DAYS[order.choice.cycle];
  const price = text.price(order.price, order.currency, order.choice.cycle) ?? '—';
  const now = order.now;
  const nowText =
    now === null || now.amount === 0
      ? t('billing.order.nowNothing')
      : now.amount < 0
        ? t('billing.order.nowCredit', { amount: text.money(-now.amount, order.currency) })
        : t(now.prorated ? 'billing.order.nowProrated' : 'billing.order.nowBody', {
            amount: text.money(now.amount, order.currency),
          });
  const schedule =
    order.firstChargeAt === null
      ? t('billing.order.scheduleFromNow', { price, days })
      : t('billing.order.scheduleBody', { price, days, date: time(order.firstChargeAt) });
  const items: [key: string, term: string, body: string][] = [
    ['plan', t('billing.order.plan'), t('billing.order.planBody', { plan: text.choice(order.choice), days })],
    ['price', t('billing.order.price'), price],
    ['now', t('billing.order.now'), nowText],
    ['schedule', t('billing.order.schedule'), schedule],
    ...(order.trialEnd
      ? [
          [
            'trial',
            t('billing.order.trial'),
            t('billing.order.trialBody', { date: time(order.trialEnd), price }),
          ] as [string, string, string],
        ]
      : []),
    ['renewal', t('billing.order.renewal'), t('billing.order.renewalBody')],
    ['cancel', t('billing.order.cancel'), t('billing.order.cancelBody')],
    ['delivery', t('billing.order.delivery'), t('billing.order.deliveryBody')],
    ['payment', t('billing.order.payment'), t('billing.order.paymentBody')],
  ];
  return (
    <section className="order-confirmation" aria-labelledby="order-title" data-testid="order-confirmation">
      <h2 id="order-title" className="section-title">
        {t('billing.order.title')}
      </h2>
      <p>{t('billing.order.lead')}</p>
      <dl className="order-items">
        {items.map(([key, term, body]) => (
          <div key={key} className="order-item" data-testid={`order-${key}`}>
            <dt>{term}</dt>
            <dd>{body}</dd>
          </div>
        ))}
      </dl>
      <LegalLinks />
      <p className="order-agree">{t('billing.order.agree')}</p>
    </section>
  );
}
