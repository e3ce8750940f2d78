import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routePaths } from '../route-paths.ts';
import './legal.css';

/**
 * The three legal pages (特定商取引法に基づく表記, privacy policy, terms), linked from the footer,
 * the landing page, sign-up, the plan tables and every payment screen (docs/legal.md): a named
 * list beside what they concern. Not a navigation landmark: the top navigation stays the one
 * the screens have.
 */
export function LegalLinks() {
  const { t } = useTranslation();
  return (
    <ul className="legal-links" aria-label={t('legal.nav')}>
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
}
