import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from './language-switch.tsx';

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <LanguageSwitch />
      <small>{t('footer.copyright')}</small>
    </footer>
  );
}
