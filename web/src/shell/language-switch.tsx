import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, languageFromTag, rememberLanguageChoice } from '../i18n/language.ts';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = languageFromTag(i18n.resolvedLanguage);
  const choose = (language: Language) => {
    rememberLanguageChoice(language);
    void i18n.changeLanguage(language);
  };
  return (
    <fieldset className="language-switch">
      <legend>{t('footer.language')}</legend>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="language-option"
          aria-pressed={language === current}
          onClick={() => choose(language)}
        >
          {t(`languages.${language}`)}
        </button>
      ))}
    </fieldset>
  );
}
