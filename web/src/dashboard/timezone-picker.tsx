import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { useUpdateAccount } from '../hooks/use-account.ts';
import { useTimezones } from '../hooks/use-timezones.ts';
import { FormDialog } from '../shell/form-dialog.tsx';
import { defaultTimezone } from './default-timezone.ts';

/**
 * Asks a user who has no time zone yet (docs/product.md#time-zones) to choose one, starting from the
 * browser's offset. Saving reloads user_info, which then has the zone, and the picker goes.
 */
export function TimezonePicker({ onDismiss }: { onDismiss: () => void }) {
  const { t } = useTranslation();
  const timezones = useTimezones();
  const update = useUpdateAccount();
  const [choice, setChoice] = useState('');

  const options = timezones.data ?? [];
  const value = choice || defaultTimezone(options);
  const submit = () => {
    if (value) update.mutate({ timezone: value });
  };

  return (
    <FormDialog
      name="timezone"
      title={t('dashboard.timezone.title')}
      lead={t('dashboard.timezone.lead')}
      dismissLabel={t('dashboard.timezone.later')}
      submitButton={
        <button type="submit" className="button primary" disabled={!timezones.data || update.isPending}>
          {update.isPending ? t('actions.saving') : t('actions.save')}
        </button>
      }
      onSubmit={submit}
      onClose={onDismiss}
    >
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
    </FormDialog>
  );
}
