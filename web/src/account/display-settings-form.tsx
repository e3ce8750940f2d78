import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSettings, AccountUpdate } from '../api/account.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useTimezones } from '../hooks/use-timezones.ts';
import { LANGUAGES, languageFromTag, rememberLanguageChoice } from '../i18n/language.ts';
import { useAccountEdit } from './account-edit.tsx';

const CURRENCIES = ['JPY', 'USD'] as const;

/**
 * Time zone, language and currency, saved together. The time zone list loads on its own: when
 * it fails, its place shows the failure and a retry while the other two stay editable.
 */
export function DisplaySettingsForm({ account }: { account: AccountSettings }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const timezones = useTimezones();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [timezone, setTimezone] = useState(account.timezone);
  const [lang, setLang] = useState(languageFromTag(account.lang));
  const [currency, setCurrency] = useState(account.currency);
  const edit = useAccountEdit(
    account,
    (saved) => ({ timezone: saved.timezone, lang: saved.lang, currency: saved.currency }),
    (values) => {
      if (values.timezone !== undefined) setTimezone(values.timezone);
      if (values.lang !== undefined) setLang(languageFromTag(values.lang));
      if (values.currency !== undefined) setCurrency(values.currency);
    },
  );
  const { update } = edit;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Compared with what the form started from, not the cache another tab's save may have refreshed.
    const started = edit.base;
    const changes: AccountUpdate = {};
    if (timezones.data && timezone !== started.timezone) changes.timezone = timezone;
    if (lang !== started.lang) changes.lang = lang;
    if (currency !== started.currency) changes.currency = currency;
    edit.save(
      changes,
      { timezone, lang, currency },
      {
        onSuccess: () => {
          // The saved language is the screen's too, over an earlier footer choice in this browser.
          if (!changes.lang) return;
          rememberLanguageChoice(lang);
          void i18n.changeLanguage(lang);
        },
        onSettled: focusResult,
      },
    );
  };

  const zoneChoices = timezones.data ?? [];
  // A zone saved earlier but missing from today's list still shows as the current choice.
  const savedMissing = timezone !== '' && !zoneChoices.some((option) => option.v === timezone);
  return (
    <form ref={container} className="form settings-form" noValidate onSubmit={submit}>
      {update.isSuccess && <FormMessage tone="success" message={t('account.saved')} />}
      {edit.notice}
      {update.isError && !edit.conflicted && (
        <FormMessage
          tone="error"
          message={
            update.variables?.timezone && !update.variables.lang && !update.variables.currency
              ? errorText('timezone_save_failed')
              : errorText(update.error)
          }
        />
      )}
      <div className="field">
        <label htmlFor="account-timezone" className="field-label">
          {t('account.timezone')}
        </label>
        {timezones.isError ? (
          <div className="notice inline-notice" role="alert">
            <p>{t('account.timezoneFailed')}</p>
            <button type="button" className="button" onClick={() => void timezones.refetch()}>
              {t('actions.retry')}
            </button>
          </div>
        ) : (
          <select
            id="account-timezone"
            className="input"
            value={timezone}
            disabled={timezones.isPending}
            onChange={(event) => setTimezone(event.target.value)}
          >
            {timezones.isPending && <option value={timezone}>{t('app.loading')}</option>}
            {timezone === '' && !timezones.isPending && <option value="">—</option>}
            {savedMissing && !timezones.isPending && <option value={timezone}>{timezone}</option>}
            {zoneChoices.map((option) => (
              <option key={option.v} value={option.v}>
                {option.d}
              </option>
            ))}
          </select>
        )}
      </div>
      <div className="field">
        <label htmlFor="account-language" className="field-label">
          {t('account.language')}
        </label>
        <select
          id="account-language"
          className="input"
          value={lang}
          onChange={(event) => setLang(languageFromTag(event.target.value))}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {t(`languages.${language}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="account-currency" className="field-label">
          {t('account.currency')}
        </label>
        <select
          id="account-currency"
          className="input"
          value={currency}
          onChange={(event) => setCurrency(event.target.value)}
        >
          {CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {t(`account.currencies.${code}`)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button primary" disabled={update.isPending}>
        {update.isPending ? t('actions.saving') : t('actions.save')}
      </button>
    </form>
  );
}
