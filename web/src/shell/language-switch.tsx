import { useTranslation } from 'react-i18next';
import { useUpdateAccount } from '../hooks/use-account.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { LANGUAGES, type Language, languageFromTag, rememberLanguageChoice } from '../i18n/language.ts';

/**
 * The footer's language choice. It changes the screens in this browser only: a signed-in user's
 * account language, which their mails are written in, stays as saved (a switch that saved it too
 * sent the next update mail in a language the user never chose for it). While the two differ, the
 * footer says so and offers to save the screen's language to the account.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const accountLanguage = useUserInfo().data?.locale.Lang;
  const updateAccount = useUpdateAccount();
  const current = languageFromTag(i18n.resolvedLanguage);
  const choose = (language: Language) => {
    rememberLanguageChoice(language);
    updateAccount.reset();
    void i18n.changeLanguage(language);
  };
  const saved = accountLanguage === undefined ? undefined : languageFromTag(accountLanguage);
  return (
    <div className="language-settings">
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
      {saved !== undefined && saved !== current && (
        <p className="language-account" role="status">
          <span>{t('footer.accountLanguage', { language: t(`footer.languageNames.${saved}`) })}</span>
          <button
            type="button"
            className="button small"
            disabled={updateAccount.isPending}
            onClick={() => updateAccount.mutate({ lang: current })}
          >
            {t('footer.saveToAccount', { language: t(`footer.languageNames.${current}`) })}
          </button>
        </p>
      )}
      {updateAccount.isSuccess && saved === current && (
        <p className="language-account" role="status">
          {t('footer.savedToAccount', { language: t(`footer.languageNames.${current}`) })}
        </p>
      )}
      {updateAccount.isError && (
        <p className="language-account field-error" role="alert">
          {t('footer.saveFailed')}
        </p>
      )}
    </div>
  );
}
