import { useTranslation } from 'react-i18next';
import { LegalDocument, LegalSections, useOperatorText } from '../legal/legal-document.tsx';

/** The terms of service (docs/legal.md): the trial's conversion, fees, renewal, cancellation, refunds. */
export default function LegalTermsPage() {
  const { t } = useTranslation();
  const operatorText = useOperatorText();
  return (
    <LegalDocument title={t('legal.terms.title')}>
      {(operator) => (
        <>
          <p>{t('legal.terms.lead', { name: operatorText(operator).name })}</p>
          <LegalSections sections={t('legal.terms.sections', { returnObjects: true })} />
        </>
      )}
    </LegalDocument>
  );
}
