import { useTranslation } from 'react-i18next';
import { LegalDocument, LegalSections, useOperatorText } from '../legal/legal-document.tsx';

/**
 * The privacy policy (APPI, docs/legal.md): the operator, purposes, third parties with the card
 * processor abroad (Stripe, United States) as the cross-border rules ask, security measures,
 * retention, and how to ask for disclosure, correction or deletion.
 */
export default function LegalPrivacyPage() {
  const { t } = useTranslation();
  const operatorText = useOperatorText();
  return (
    <LegalDocument title={t('legal.privacy.title')}>
      {(operator) => {
        const seller = operatorText(operator);
        return (
          <>
            <p>{t('legal.privacy.lead', { name: seller.name })}</p>
            <section aria-labelledby="legal-operator">
              <h2 id="legal-operator">{t('legal.privacy.operator')}</h2>
              <p data-testid="privacy-operator">
                {t('legal.privacy.operatorBody', {
                  name: seller.name,
                  address: seller.address,
                  representative: seller.representative,
                })}
              </p>
            </section>
            <LegalSections
              sections={t('legal.privacy.sections', { returnObjects: true, email: seller.email })}
            />
          </>
        );
      }}
    </LegalDocument>
  );
}
