import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteAccount } from '../api/account-data.ts';
import { signOut } from '../api/sign-out.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { routePaths } from '../route-paths.ts';
import './account-data.css';

/**
 * Deleting the account (docs/product.md#your-data): what happens and when, then the password and
 * the typed word. Once done, the session ends and the goodbye page says when everything is erased.
 */
export function DeleteAccountForm({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const remove = useMutation({
    mutationFn: deleteAccount,
    onSuccess: async ({ purge_at }) => {
      // The session is of no use any more; a full page load drops everything cached of it.
      await signOut().catch(() => undefined);
      window.location.assign(`${routePaths.accountDeleted}?until=${encodeURIComponent(purge_at)}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(hasPassword ? { password, confirmation } : { confirmation }, { onError: focusResult });
  };
  const code = errorCode(remove.error);
  const passwordError = code === 'current_password_mismatch' ? errorText(code) : undefined;
  const confirmationError = code === 'confirmation_mismatch' ? errorText(code) : undefined;
  return (
    <form
      ref={container}
      className="form inline-form"
      noValidate
      onSubmit={submit}
      data-testid="delete-account"
    >
      <p className="lead">{t('accountData.deleteLead')}</p>
      <ul className="account-data-facts">
        <li>{t('accountData.deleteNow')}</li>
        <li>{t('accountData.deleteLater')}</li>
        <li>{t('accountData.deleteReceipts')}</li>
        <li>{t('accountData.deleteExportFirst')}</li>
      </ul>
      {remove.isError && !passwordError && !confirmationError && (
        <FormMessage tone="error" message={errorText(remove.error)} />
      )}
      {hasPassword && (
        <TextField
          id="delete-password"
          label={t('accountData.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={passwordError}
        />
      )}
      <TextField
        id="delete-confirmation"
        label={t('accountData.confirmation')}
        hint={t('accountData.confirmationHint')}
        autoComplete="off"
        value={confirmation}
        onChange={setConfirmation}
        error={confirmationError}
      />
      <button type="submit" className="button danger-solid" disabled={remove.isPending}>
        {remove.isPending ? t('accountData.deleting') : t('accountData.delete')}
      </button>
    </form>
  );
}
