import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { OperatorDetails } from '../api/operator.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useOperator } from '../hooks/use-operator.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import './legal.css';

/** The operator's texts in the screen's language, the on-request wording where one is left off. */
export function useOperatorText() {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage === 'en' ? 'en' : 'ja';
  return (operator: OperatorDetails) => {
    // A sample's one-language placeholders read in the screen's language.
    const plain = (value: string) => (operator.sample ? t('legal.sampleValue') : value);
    const onRequest = t('legal.onRequest', { email: plain(operator.email) });
    return {
      name: operator.legal_name[lang],
      representative: operator.representative[lang],
      address: operator.address ? operator.address[lang] : onRequest,
      phone: operator.phone === null ? onRequest : plain(operator.phone),
      email: plain(operator.email),
      registrationNumber: plain(operator.registration_number),
    };
  };
}

/**
 * A legal page: its title as the heading and in the tab, a marked sample notice when the
 * installation names no seller, then the document, which needs the operator details.
 */
export function LegalDocument({
  title,
  children,
}: {
  title: string;
  children: (operator: OperatorDetails) => ReactNode;
}) {
  const { t } = useTranslation();
  const operator = useOperator();
  useEffect(() => {
    document.title = `${title} | ${t('app.name')}`;
  }, [title, t]);
  return (
    <article className="page legal-document" aria-labelledby="page-title">
      <h1 id="page-title" className="page-title">
        {title}
      </h1>
      {operator.isError ? (
        <FormMessage tone="error" message={t('legal.loadFailed')} />
      ) : !operator.data ? (
        <LoadingIndicator />
      ) : (
        <>
          {operator.data.sample && (
            <p className="notice legal-sample" data-testid="legal-sample">
              {t('legal.sample')}
            </p>
          )}
          {children(operator.data)}
        </>
      )}
      <p className="legal-updated">{t('legal.updated')}</p>
    </article>
  );
}

/** Numbered sections of paragraphs, as the privacy policy and the terms are written. */
export function LegalSections({
  sections,
}: {
  sections: Record<string, { title: string; body: readonly string[] }>;
}) {
  return (
    <>
      {Object.entries(sections).map(([key, section]) => (
        <section key={key} aria-labelledby={`legal-${key}`}>
          <h2 id={`legal-${key}`}>{section.title}</h2>
          {section.body.length > 1 ? (
            <ul>
              {section.body.map((paragraph) => (
                <li key={paragraph}>{paragraph}</li>
              ))}
            </ul>
          ) : (
            <p>{section.body[0]}</p>
          )}
        </section>
      ))}
    </>
  );
}
