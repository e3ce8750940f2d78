import { useTranslation } from 'react-i18next';
import { LegalLinks } from '../legal/legal-links.tsx';
import { LanguageSwitch } from './language-switch.tsx';

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <LanguageSwitch />
      <LegalLinks />
      <small>{t('footer.copyright')}</small>
    </footer>
  );
}
