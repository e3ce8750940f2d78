import { useTranslation } from 'react-i18next';
import type { AdditionalMail } from '../api/account.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useAddMail, useRemoveMail } from '../hooks/use-account.ts';
import { AccountSection } from './account-section.tsx';
import { EmailAddressForm } from './email-address-form.tsx';

const EMAIL_FIELD_CODES = new Set(['invalid_email', 'email_confusable', 'mail_already_added']);

/** Additional notification addresses: each is used once its mailed link has been opened. */
export function MailsSection({ mails }: { mails: AdditionalMail[] }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const add = useAddMail();
  const remove = useRemoveMail();
  const { container, focusResult } = useFocusAfterSubmit<HTMLDivElement>();
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
        <EmailAddressForm
          inputId="account-add-mail"
          label={t('account.mailNew')}
          submitLabel={t('account.mailAdd')}
          send={add}
          fieldCodes={EMAIL_FIELD_CODES}
          sentMessage={(email) => t('account.mailAdded', { email })}
          clearWhenSent
          focusResult={focusResult}
        />
      </div>
    </AccountSection>
  );
}
