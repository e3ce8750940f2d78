import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routePaths } from '../route-paths.ts';
import './legal.css';

/**
 * The three legal pages (特定商取引法に基づく表記, privacy policy, terms), linked from the footer,
 * the landing page, sign-up, the plan tables and every payment screen (docs/legal.md). In the
 * footer they are a navigation landmark; elsewhere a plain list beside what they concern.
 */
export function LegalLinks({ landmark = false }: { landmark?: boolean }) {
  const { t } = useTranslation();
  const list = (
    <ul className="legal-links" aria-label={landmark ? undefined : t('legal.nav')}>
      <li>
        <Link to={routePaths.legalCommerce}>{t('legal.links.commerce')}</Link>
      </li>
      <li>
        <Link to={routePaths.legalPrivacy}>{t('legal.links.privacy')}</Link>
      </li>
      <li>
        <Link to={routePaths.legalTerms}>{t('legal.links.terms')}</Link>
      </li>
    </ul>
  );
  return landmark ? <nav aria-label={t('legal.nav')}>{list}</nav> : list;
}
