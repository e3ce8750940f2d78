import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { planOnlyPrice, visitorCurrency } from '../billing/plan-price.ts';
import { usePlanText } from '../billing/use-plan-text.ts';
import { usePlans } from '../hooks/use-billing.ts';
import { ProductScreenshot } from '../landing/product-screenshot.tsx';
import { LegalLinks } from '../legal/legal-links.tsx';
import { routePaths } from '../route-paths.ts';
import { TRIAL_PLANS } from '../signup/plan-table.tsx';
import '../landing/landing.css';

const STEPS = ['url', 'area', 'notify'] as const;
const FEATURES = ['noise', 'pictures', 'login', 'history'] as const;

/**
 * `/` for a signed-out visitor (docs/product.md#screens): what Mimamori does, its plans and the
 * trial without a card (docs/product.md#subscription), with the way to sign up or sign in.
 * Monthly prices come from the public plans endpoint, in yen for a Japanese visitor and dollars
 * otherwise, as on the sign-up table; without them (loading, or billing not configured) the
 * column is left out rather than showing a price that may be wrong (docs/product.md#prices).
 */
export default function LandingPage() {
  const { t, i18n } = useTranslation();
  const text = usePlanText();
  const plans = usePlans();
  const currency = visitorCurrency(i18n.resolvedLanguage);
  const priceOf = (planId: number) =>
    plans.data
      ? text.tablePrice(planOnlyPrice(plans.data, planId, 'month', currency), currency, 'month')
      : null;
  const priced = TRIAL_PLANS.some((plan) => priceOf(plan.id) !== null);
  useEffect(() => {
    document.title = t('landing.documentTitle');
  }, [t]);
  return (
    <div className="landing">
      <section className="landing-hero" aria-labelledby="landing-title">
        <div className="landing-hero-text">
          <h1 id="landing-title" className="landing-title">
            {t('landing.hero.title')}
          </h1>
          <p className="landing-lead">{t('landing.hero.lead')}</p>
          <div className="landing-actions">
            <Link to={routePaths.signup} className="button primary landing-start">
              {t('landing.hero.start')}
            </Link>
            <Link to={routePaths.signin} className="button">
              {t('landing.hero.signIn')}
            </Link>
          </div>
          <p className="landing-note">{t('landing.hero.startNote')}</p>
        </div>
        <ProductScreenshot />
      </section>

      <section className="landing-section" aria-labelledby="landing-steps">
        <h2 id="landing-steps">{t('landing.steps.title')}</h2>
        <ol className="landing-steps">
          {STEPS.map((step, index) => (
            <li key={step} className="landing-card">
              <span className="landing-step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{t(`landing.steps.${step}.title`)}</h3>
              <p>{t(`landing.steps.${step}.body`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="landing-section" aria-labelledby="landing-features">
        <h2 id="landing-features">{t('landing.features.title')}</h2>
        <ul className="landing-features">
          {FEATURES.map((feature) => (
            <li key={feature}>{t(`landing.features.${feature}`)}</li>
          ))}
        </ul>
      </section>

      <section className="landing-section" aria-labelledby="landing-plans">
        <h2 id="landing-plans">{t('landing.plans.title')}</h2>
        <p>{t('landing.plans.lead')}</p>
        {priced && <p data-testid="landing-tax-note">{text.tableNote(currency)}</p>}
        <div className="landing-plan-scroll">
          <table className="landing-plans">
            <caption>{t('landing.plans.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('landing.plans.plan')}</th>
                <th scope="col">{t('landing.plans.sites')}</th>
                <th scope="col">{t('landing.plans.oneMinute')}</th>
                <th scope="col">{t('landing.plans.tenMinute')}</th>
                <th scope="col">{t('landing.plans.mails')}</th>
                {priced && <th scope="col">{t('landing.plans.price')}</th>}
                <td />
              </tr>
            </thead>
            <tbody>
              {TRIAL_PLANS.map((plan) => (
                <tr key={plan.id}>
                  <th scope="row">{t(plan.nameKey as 'plans.basic5')}</th>
                  <td data-label={t('landing.plans.sites')}>{plan.sites}</td>
                  <td data-label={t('landing.plans.oneMinute')}>{plan.quota._1min}</td>
                  <td data-label={t('landing.plans.tenMinute')}>{plan.quota._10min}</td>
                  <td data-label={t('landing.plans.mails')}>{plan.quota.mail}</td>
                  {priced && (
                    <td
                      className="landing-plan-price"
                      data-label={t('landing.plans.price')}
                      data-testid={`landing-price-${plan.id}`}
                    >
                      {priceOf(plan.id) ?? '—'}
                    </td>
                  )}
                  <td className="landing-plan-action">
                    <Link
                      to={`${routePaths.signup}?plan=${plan.id}`}
                      className="button small"
                      aria-label={`${t('landing.plans.start')}: ${t(plan.nameKey as 'plans.basic5')}`}
                    >
                      {t('landing.plans.start')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <LegalLinks />
      </section>

      <section className="landing-section landing-closing" aria-labelledby="landing-closing">
        <h2 id="landing-closing">{t('landing.closing.title')}</h2>
        <p>{t('landing.closing.body')}</p>
        <Link to={routePaths.signup} className="button primary landing-start">
          {t('landing.hero.start')}
        </Link>
        <p className="landing-note">{t('landing.hero.startNote')}</p>
      </section>
    </div>
  );
}
