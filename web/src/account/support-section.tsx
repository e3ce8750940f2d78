import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORT_TYPES, type SupportType } from '../api/support.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useSendSupportRequest } from '../hooks/use-support.ts';
import { AccountSection } from './account-section.tsx';

/** A support request (type and notes); the confirmation mail carries the follow-up link. */
export function SupportSection() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const send = useSendSupportRequest();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [type, setType] = useState<SupportType>('navigation');
  const [notes, setNotes] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate({ type, notes }, { onSuccess: () => setNotes(''), onSettled: focusResult });
  };
  return (
    <AccountSection id="support" title={t('account.support')}>
      <form ref={container} className="form inline-form" onSubmit={submit}>
        <p className="lead">{t('account.supportLead')}</p>
        {send.isSuccess && <FormMessage tone="success" message={t('account.supportSent')} />}
        {send.isError && <FormMessage tone="error" message={errorText(send.error)} />}
        <div className="field">
          <label htmlFor="support-type" className="field-label">
            {t('account.supportType')}
          </label>
          <select
            id="support-type"
            className="input"
            value={type}
            onChange={(event) =>
              setType(SUPPORT_TYPES.find((each) => each === event.target.value) ?? 'other')
            }
          >
            {SUPPORT_TYPES.map((each) => (
              <option key={each} value={each}>
                {t(`support.types.${each}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="support-notes" className="field-label">
            {t('account.supportNotes')}
          </label>
          <textarea
            id="support-notes"
            className="input"
            rows={4}
            maxLength={2000}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
          />
        </div>
        <button type="submit" className="button" disabled={send.isPending}>
          {send.isPending ? t('actions.sending') : t('account.supportSend')}
        </button>
      </form>
    </AccountSection>
  );
}
