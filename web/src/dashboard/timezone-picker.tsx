import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { useUpdateAccount } from '../hooks/use-account.ts';
import { useTimezones } from '../hooks/use-timezones.ts';
import { defaultTimezone } from './default-timezone.ts';

/**
 * Asks a user who has no time zone yet (spec section 2) to choose one, starting from the
 * browser's offset. Saving reloads user_info, which then has the zone, and the picker goes.
 */
export function TimezonePicker({ onDismiss }: { onDismiss: () => void }) {
  const { t } = useTranslation();
  const timezones = useTimezones();
  const update = useUpdateAccount();
  const dialog = useRef<HTMLDialogElement>(null);
  const [choice, setChoice] = useState('');

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const options = timezones.data ?? [];
  const value = choice || defaultTimezone(options);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value) update.mutate({ timezone: value });
  };

  return (
    <dialog ref={dialog} className="timezone-dialog" aria-labelledby="timezone-title" onClose={onDismiss}>
      <form className="form" noValidate onSubmit={submit}>
        <h2 id="timezone-title" className="section-title">
          {t('dashboard.timezone.title')}
        </h2>
        <p className="lead">{t('dashboard.timezone.lead')}</p>
        {update.isError && <FormMessage tone="error" message={t('dashboard.timezone.saveFailed')} />}
        {timezones.isError ? (
          <div className="notice inline-notice" role="alert">
            <p>{t('dashboard.timezone.loadFailed')}</p>
            <button type="button" className="button" onClick={() => void timezones.refetch()}>
              {t('actions.retry')}
            </button>
          </div>
        ) : (
          <div className="field">
            <label htmlFor="timezone-choice" className="field-label">
              {t('dashboard.timezone.label')}
            </label>
            <select
              id="timezone-choice"
              className="input"
              value={value}
              disabled={timezones.isPending}
              onChange={(event) => setChoice(event.target.value)}
            >
              {timezones.isPending && <option value="">{t('app.loading')}</option>}
              {options.map((option) => (
                <option key={option.v} value={option.v}>
                  {option.d}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="alert-actions">
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            {t('dashboard.timezone.later')}
          </button>
          <button type="submit" className="button primary" disabled={!timezones.data || update.isPending}>
            {update.isPending ? t('actions.saving') : t('actions.save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
