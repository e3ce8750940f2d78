import { useTranslation } from 'react-i18next';
import updateEn from './update-en.webp';
import updateJa from './update-ja.webp';

/**
 * A real update on the site detail screen, taken from the product in each language (the demo
 * shop's price, its diff and the boxed before/after pictures), so a visitor sees what they get.
 */
export function ProductScreenshot() {
  const { t, i18n } = useTranslation();
  const japanese = i18n.language.startsWith('ja');
  return (
    <figure className="landing-shot">
      <img src={japanese ? updateJa : updateEn} width={924} height={694} alt={t('landing.screenshot.alt')} />
      <figcaption>{t('landing.screenshot.caption')}</figcaption>
    </figure>
  );
}
