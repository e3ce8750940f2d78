import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSettings } from '../api/account.ts';
import type { AccountQuietHoursJson, QuietHoursJson } from '../api/quiet-hours.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useQuietHours } from '../hooks/use-quiet-hours.ts';
import { QuietHoursFields } from '../quiet-hours/quiet-hours-fields.tsx';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { useQuietHoursEdit } from './account-edit.tsx';
import { AccountSection } from './account-section.tsx';

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

function QuietHoursForm({ stored, timeZone }: { stored: AccountQuietHoursJson; timeZone: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const { revision: _revision, ...start } = stored;
  const [quiet, setQuiet] = useState<QuietHoursJson>(start);
  const edit = useQuietHoursEdit(
    stored,
    ({ from, until, all_day, holidays, alerts_break_through }) => ({
      from,
      until,
      all_day,
      holidays,
      alerts_break_through,
    }),
    (values) => setQuiet((current) => ({ ...current, ...values })),
  );
  const save = edit.update;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    edit.save(quiet, quiet, { onSettled: focusResult });
  };
  return (
    <form ref={container} className="form settings-form" noValidate onSubmit={submit}>
      {save.isSuccess && <FormMessage tone="success" message={t('quietHours.saved')} />}
      {edit.notice}
      {save.isError && !edit.conflicted && <FormMessage tone="error" message={errorText(save.error)} />}
      <QuietHoursFields idPrefix="quiet" value={quiet} onChange={setQuiet} />
      <p className="field-hint">{t('quietHours.zone', { zone: timeZone })}</p>
      <div className="button-row">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('quietHours.save')}
        </button>
      </div>
    </form>
  );
}
