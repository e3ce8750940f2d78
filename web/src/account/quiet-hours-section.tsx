import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSettings } from '../api/account.ts';
import type { QuietHoursJson } from '../api/quiet-hours.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useQuietHours, useSaveQuietHours } from '../hooks/use-quiet-hours.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { AccountSection } from './account-section.tsx';

/** Monday first, as a Japanese calendar week reads; the values stay 0 Sunday … 6 Saturday. */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

/**
 * The account's quiet hours (docs/product.md#quiet-hours): a daily window, weekdays quiet all day,
 * Japanese public holidays, and whether failure alerts break through.
 */
export function QuietHoursSection({ account }: { account: AccountSettings }) {
  const { t } = useTranslation();
  // As the notifier reads it: the account's zone, else Japan time for Japanese and UTC for English.
  const timeZone = account.timezone || (account.lang === 'en' ? 'UTC' : 'Asia/Tokyo');
  const errorText = useErrorText();
  const stored = useQuietHours();
  return (
    <AccountSection id="quiet-hours" title={t('quietHours.title')}>
      <p className="lead">{t('quietHours.lead')}</p>
      {stored.isPending && <LoadingIndicator />}
      {stored.isError && (
        <div className="notice inline-notice" role="alert">
          <p>{errorText(stored.error)}</p>
          <button type="button" className="button" onClick={() => void stored.refetch()}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {stored.data && <QuietHoursForm stored={stored.data} timeZone={timeZone} />}
    </AccountSection>
  );
}

function QuietHoursForm({ stored, timeZone }: { stored: QuietHoursJson; timeZone: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const save = useSaveQuietHours();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [quiet, setQuiet] = useState(stored);
  const change = (part: Partial<QuietHoursJson>) => setQuiet((current) => ({ ...current, ...part }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(quiet, { onSettled: focusResult });
  };
  return (
    <form ref={container} className="form settings-form quiet-hours-form" noValidate onSubmit={submit}>
      {save.isSuccess && <FormMessage tone="success" message={t('quietHours.saved')} />}
      {save.isError && <FormMessage tone="error" message={errorText(save.error)} />}
      <fieldset>
        <legend className="field-label">{t('quietHours.window')}</legend>
        <p className="field-hint" id="quiet-window-hint">
          {t('quietHours.windowHint')}
        </p>
        <div className="button-row">
          <div className="field">
            <label htmlFor="quiet-from" className="field-label">
              {t('quietHours.from')}
            </label>
            <input
              id="quiet-from"
              className="input"
              type="time"
              value={quiet.from}
              aria-describedby="quiet-window-hint"
              onChange={(event) => change({ from: event.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor="quiet-until" className="field-label">
              {t('quietHours.until')}
            </label>
            <input
              id="quiet-until"
              className="input"
              type="time"
              value={quiet.until}
              aria-describedby="quiet-window-hint"
              onChange={(event) => change({ until: event.target.value })}
            />
          </div>
        </div>
        <button type="button" className="button" onClick={() => change({ from: '', until: '' })}>
          {t('quietHours.clearWindow')}
        </button>
      </fieldset>
      <fieldset>
        <legend className="field-label">{t('quietHours.allDay')}</legend>
        <div className="option-grid">
          {WEEK.map((day) => (
            <label key={day} className="checkbox">
              <input
                type="checkbox"
                checked={quiet.all_day.includes(day)}
                onChange={(event) =>
                  change({
                    all_day: event.target.checked
                      ? [...quiet.all_day, day]
                      : quiet.all_day.filter((other) => other !== day),
                  })
                }
              />
              {t(`quietHours.weekdays.d${day}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={quiet.holidays}
          onChange={(event) => change({ holidays: event.target.checked })}
        />
        {t('quietHours.holidays')}
      </label>
      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={quiet.alerts_break_through}
            aria-describedby="quiet-alerts-hint"
            onChange={(event) => change({ alerts_break_through: event.target.checked })}
          />
          {t('quietHours.alertsBreakThrough')}
        </label>
        <p className="field-hint" id="quiet-alerts-hint">
          {t('quietHours.alertsHint')}
        </p>
      </div>
      <p className="field-hint">{t('quietHours.zone', { zone: timeZone })}</p>
      <div className="button-row">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('quietHours.save')}
        </button>
      </div>
    </form>
  );
}
