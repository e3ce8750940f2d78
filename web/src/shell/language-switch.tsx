import { useTranslation } from 'react-i18next';
import { useUpdateAccount } from '../hooks/use-account.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { LANGUAGES, type Language, languageFromTag, rememberLanguageChoice } from '../i18n/language.ts';

/**
 * The footer's language choice. A signed-in user's language lives on the account (the shell applies
 * it on every load), so the choice is saved there too; kept only in this browser, it was undone by
 * the account's language at the next load, and the button seemed to do nothing.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const signedIn = useUserInfo().data !== undefined;
  const updateAccount = useUpdateAccount();
  const current = languageFromTag(i18n.resolvedLanguage);
  const choose = (language: Language) => {
    rememberLanguageChoice(language);
    void i18n.changeLanguage(language);
    if (signedIn) updateAccount.mutate({ lang: language });
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
