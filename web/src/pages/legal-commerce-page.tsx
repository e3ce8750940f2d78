import { BILLED_PLANS, type Currency, type Cycle } from '@mimamori/plans';
import { useTranslation } from 'react-i18next';
import { planOnlyPrice } from '../billing/plan-price.ts';
import { usePlanText } from '../billing/use-plan-text.ts';
import { usePlans } from '../hooks/use-billing.ts';
import { LegalDocument, useOperatorText } from '../legal/legal-document.tsx';

/** Plans the catalogue sells at a fixed price; the custom plan's price is its add-ons' sum. */
const LISTED_PLANS = BILLED_PLANS.filter((plan) => plan !== 2);
const ROWS = [
  'otherCosts',
  'payment',
  'paymentTiming',
  'delivery',
  'period',
  'renewal',
  'cancel',
  'refund',
  'trial',
  'environment',
] as const;

/**
 * 特定商取引法に基づく表記 (docs/legal.md): every item the law asks of an online service sold by
 * subscription, the seller's details from the operator configuration and the prices from the
 * plan catalogue, tax included.
 */
export default function LegalCommercePage() {
  const { t } = useTranslation();
  const operatorText = useOperatorText();
  return (
    <LegalDocument title={t('legal.commerce.title')}>
      {(operator) => {
        const seller = operatorText(operator);
        return (
          <table className="legal-table" data-testid="commerce-table">
            <tbody>
              <Row label={t('legal.commerce.seller')} testId="commerce-seller">
                {seller.name}
              </Row>
              <Row label={t('legal.commerce.representative')} testId="commerce-representative">
                {seller.representative}
              </Row>
              <Row label={t('legal.commerce.address')} testId="commerce-address">
                {seller.address}
              </Row>
              <Row label={t('legal.commerce.phone')} testId="commerce-phone">
                {seller.phone}
                <br />
                {t('legal.commerce.phoneNote')}
              </Row>
              <Row label={t('legal.commerce.email')} testId="commerce-email">
                {seller.email}
              </Row>
              <Row label={t('legal.commerce.registrationNumber')} testId="commerce-registration">
                {seller.registrationNumber}
              </Row>
              <Row label={t('legal.commerce.prices')} testId="commerce-prices">
                <p>{t('legal.commerce.pricesLead')}</p>
                <PriceTable />
                <p>{t('legal.commerce.pricesCustom')}</p>
              </Row>
              {ROWS.map((row) => (
                <Row key={row} label={t(`legal.commerce.${row}`)} testId={`commerce-${row}`}>
                  {t(`legal.commerce.${row}Body`)}
                </Row>
              ))}
            </tbody>
          </table>
        );
      }}
    </LegalDocument>
  );
}

function Row({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <tr data-testid={testId}>
      <th scope="row" className="legal-term">
        {label}
      </th>
      <td className="legal-detail">{children}</td>
    </tr>
  );
}

/** Each plan's monthly and yearly price: yen with its tax for customers in Japan, dollars abroad. */
function PriceTable() {
  const { t } = useTranslation();
  const text = usePlanText();
  const plans = usePlans();
  if (!plans.data) return <p>{t('legal.commerce.pricesLoading')}</p>;
  const catalogue = plans.data;
  const prices = (plan: number, cycle: Cycle) =>
    (['JPY', 'USD'] as Currency[]).flatMap((currency) => {
      const amount = planOnlyPrice(catalogue, plan, cycle, currency);
      return amount === null ? [] : [text.money(amount, currency)];
    });
  // Plans configuration does not price are not sold: the list names only those that are.
  const sold = LISTED_PLANS.filter((plan) => prices(plan, 'month').length + prices(plan, 'year').length > 0);
  const cell = (plan: number, cycle: Cycle) => {
    const lines = prices(plan, cycle);
    return lines.length === 0
      ? '—'
      : lines.map((line) => (
          <span key={line} className="legal-price-line">
            {line}
          </span>
        ));
  };
  return (
    <table className="legal-prices">
      <thead>
        <tr>
          <th scope="col">{t('legal.commerce.pricesPlan')}</th>
          <th scope="col">{t('legal.commerce.pricesMonth')}</th>
          <th scope="col">{t('legal.commerce.pricesYear')}</th>
        </tr>
      </thead>
      <tbody>
        {sold.map((plan) => (
          <tr key={plan}>
            <th scope="row">{text.planName(plan)}</th>
            <td data-label={t('legal.commerce.pricesMonth')} data-testid={`commerce-price-${plan}-month`}>
              {cell(plan, 'month')}
            </td>
            <td data-label={t('legal.commerce.pricesYear')}>{cell(plan, 'year')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
