import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdditionalMail } from '../api/account.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { emailProblem } from '../forms/validation.ts';
import { useAddMail, useRemoveMail } from '../hooks/use-account.ts';
import { AccountSection } from './account-section.tsx';

const EMAIL_FIELD_CODES = new Set(['invalid_email', 'email_confusable', 'mail_already_added']);

/** Additional notification addresses: each is used once its mailed link has been opened. */
export function MailsSection({ mails }: { mails: AdditionalMail[] }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const add = useAddMail();
  const remove = useRemoveMail();
  const { container, focusResult } = useFocusAfterSubmit<HTMLDivElement>();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = emailProblem(email);
    setProblem(found);
    if (found) return focusResult();
    add.mutate(email.trim(), {
      onSuccess: () => setEmail(''),
      onError: (error) => {
        const code = errorCode(error);
        if (code && EMAIL_FIELD_CODES.has(code)) setProblem(code);
      },
      onSettled: focusResult,
    });
  };

  const addCode = errorCode(add.error);
  return (
    <AccountSection id="mails" title={t('account.mails')}>
      <div ref={container}>
        <p className="lead">{t('account.mailsLead')}</p>
        {remove.isError && <FormMessage tone="error" message={errorText(remove.error)} />}
        {mails.length === 0 ? (
          <p className="muted">{t('account.mailsEmpty')}</p>
        ) : (
          <ul className="mail-list">
            {mails.map((mail) => (
              <li key={mail.id} className="mail-row">
                <span className="mail-address">{mail.email}</span>
                <span className={mail.verified ? 'badge verified' : 'badge pending'}>
                  {mail.verified ? t('account.mailVerified') : t('account.mailUnverified')}
                </span>
                <button
                  type="button"
                  className="button small"
                  aria-label={t('account.mailRemove', { email: mail.email })}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(mail.id)}
                >
                  {t('actions.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
        <form className="form inline-form" noValidate onSubmit={submit}>
          {add.isSuccess && (
            <FormMessage tone="success" message={t('account.mailAdded', { email: add.variables })} />
          )}
          {add.isError && !(addCode && EMAIL_FIELD_CODES.has(addCode)) && (
            <FormMessage tone="error" message={errorText(add.error)} />
          )}
          <TextField
            id="account-add-mail"
            label={t('account.mailNew')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={problem && errorText(problem)}
          />
          <button type="submit" className="button" disabled={add.isPending}>
            {add.isPending ? t('actions.sending') : t('account.mailAdd')}
          </button>
        </form>
      </div>
    </AccountSection>
  );
}
