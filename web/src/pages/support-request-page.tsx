import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SUPPORT_TYPES } from '../api/support.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useSubmitSupportFollowUp, useSupportFollowUp } from '../hooks/use-support.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';

/** /req_support?token=: the follow-up form behind the link in the support confirmation mail. */
export default function SupportRequestPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  return (
    <Page title="supportRequest">
      <FollowUp token={token} />
    </Page>
  );
}

function FollowUp({ token }: { token: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const followUp = useSupportFollowUp(token);
  const submit = useSubmitSupportFollowUp(token);
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [notes, setNotes] = useState('');

  if (token === '') return <FormMessage tone="error" message={errorText('support_link_expired')} />;
  if (submit.isSuccess) return <FormMessage tone="success" message={t('support.received')} />;
  if (followUp.isPending) return <LoadingIndicator />;
  if (followUp.isError) return <FormMessage tone="error" message={errorText(followUp.error)} />;

  const request = followUp.data;
  const typeLabel = SUPPORT_TYPES.find((type) => type === request.type);
  const send = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate(notes, { onSettled: focusResult });
  };
  return (
    <form ref={container} className="form" onSubmit={send}>
      {submit.isError && <FormMessage tone="error" message={errorText(submit.error)} />}
      <dl className="summary">
        <dt>{t('support.requestType')}</dt>
        <dd>{typeLabel ? t(`support.types.${typeLabel}`) : request.type}</dd>
        {request.notes && (
          <>
            <dt>{t('support.requestNotes')}</dt>
            <dd className="preserve-lines">{request.notes}</dd>
          </>
        )}
      </dl>
      <p className="lead">{t('support.followUpLead')}</p>
      <div className="field">
        <label htmlFor="follow-up-notes" className="field-label">
          {t('support.addNotes')}
        </label>
        <textarea
          id="follow-up-notes"
          className="input"
          rows={6}
          maxLength={2000}
          required
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </div>
      <button type="submit" className="button primary" disabled={submit.isPending || notes.trim() === ''}>
        {submit.isPending ? t('actions.sending') : t('support.submit')}
      </button>
    </form>
  );
}
