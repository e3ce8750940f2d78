import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSettings } from '../api/account.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useChangeEmail } from '../hooks/use-account.ts';
import { useAccountEdit } from './account-edit.tsx';
import { AccountSection } from './account-section.tsx';
import { EmailAddressForm } from './email-address-form.tsx';

const EMAIL_FIELD_CODES = new Set(['invalid_email', 'email_confusable', 'no_changes']);

/** Name, and the sign-in address (changed through a link mailed to the new one). */
export function ProfileSection({ account }: { account: AccountSettings }) {
  const { t } = useTranslation();
  return (
    <AccountSection id="profile" title={t('account.profile')}>
      <NameForm account={account} />
      <EmailForm current={account.email} />
    </AccountSection>
  );
}

function NameForm({ account }: { account: AccountSettings }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [name, setName] = useState(account.name);
  const edit = useAccountEdit(
    account,
    (saved) => ({ name: saved.name }),
    (values) => {
      if (values.name !== undefined) setName(values.name);
    },
  );
  const { update } = edit;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    edit.save({ name: name.trim() }, { name: name.trim() }, { onSettled: focusResult });
  };
  const code = errorCode(update.error);
  const fieldError = code === 'invalid_name' || code === 'name_too_long' ? errorText(code) : undefined;
  return (
    <form ref={container} className="form inline-form" noValidate onSubmit={submit}>
      {update.isSuccess && <FormMessage tone="success" message={t('account.saved')} />}
      {edit.notice}
      {update.isError && !fieldError && !edit.conflicted && (
        <FormMessage tone="error" message={errorText(update.error)} />
      )}
      <TextField
        id="account-name"
        label={t('account.name')}
        autoComplete="name"
        value={name}
        onChange={setName}
        error={fieldError}
      />
      <button type="submit" className="button" disabled={update.isPending}>
        {update.isPending ? t('actions.saving') : t('actions.save')}
      </button>
    </form>
  );
}

function EmailForm({ current }: { current: string }) {
  const { t } = useTranslation();
  const change = useChangeEmail();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  return (
    <EmailAddressForm
      inputId="account-new-email"
      label={t('account.emailNew')}
      submitLabel={t('account.emailChange')}
      send={change}
      fieldCodes={EMAIL_FIELD_CODES}
      sentMessage={(email) => t('account.emailSent', { email })}
      focusResult={focusResult}
      formRef={container}
    >
      <p className="current-value">
        <span className="field-label">{t('account.email')}</span>{' '}
        <span data-testid="account-email">{current || t('account.emailNone')}</span>
      </p>
    </EmailAddressForm>
  );
}
