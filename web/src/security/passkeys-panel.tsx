import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasskeyJson } from '../api/security.ts';
import { formatDateTime } from '../dashboard/target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useRemovePasskey } from '../hooks/use-security.ts';
import { queryKeys } from '../query-keys.ts';
import { createPasskey, passkeysSupported } from './passkey-ceremony.ts';

/** The account's passkeys: registered from here, listed with when each was last used, removed. */
export function PasskeysPanel({ passkeys, timeZone }: { passkeys: PasskeyJson[]; timeZone: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: createPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.security }),
  });
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [name, setName] = useState('');
  const supported = passkeysSupported();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim(), { onSuccess: () => setName(''), onSettled: focusResult });
  };
  return (
    <div className="security-panel" data-testid="passkeys-panel">
      <p className="lead">{t('security.passkeys.lead')}</p>
      {passkeys.length === 0 ? (
        <p className="muted">{t('security.passkeys.none')}</p>
      ) : (
        <ul className="security-list">
          {passkeys.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} timeZone={timeZone} />
          ))}
        </ul>
      )}
      {supported ? (
        <form ref={container} className="form security-subform" noValidate onSubmit={submit}>
          {add.isSuccess && <FormMessage tone="success" message={t('security.passkeys.added')} />}
          {add.isError && <FormMessage tone="error" message={errorText(add.error)} />}
          <TextField
            id="passkey-name"
            label={t('security.passkeys.name')}
            hint={t('security.passkeys.nameHint')}
            autoComplete="off"
            value={name}
            onChange={setName}
          />
          <button type="submit" className="button primary" disabled={add.isPending}>
            {add.isPending ? t('app.loading') : t('security.passkeys.add')}
          </button>
        </form>
      ) : (
        <p className="muted">{t('security.passkeys.unsupported')}</p>
      )}
    </div>
  );
}

function PasskeyRow({ passkey, timeZone }: { passkey: PasskeyJson; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const remove = useRemovePasskey();
  const at = (iso: string) => formatDateTime(iso, i18n.language, timeZone);
  return (
    <li className="security-row" data-testid="passkey-row">
      <div className="security-row-main">
        <span className="security-row-name">{passkey.name}</span>
        <span className="muted">
          {t('security.passkeys.created', { at: at(passkey.created_at) })}
          {' · '}
          {passkey.last_used_at
            ? t('security.passkeys.lastUsed', { at: at(passkey.last_used_at) })
            : t('security.passkeys.neverUsed')}
        </span>
        {remove.isError && <FormMessage tone="error" message={errorText(remove.error)} />}
      </div>
      <button
        type="button"
        className="button small danger"
        aria-label={t('security.passkeys.removeLabel', { name: passkey.name })}
        disabled={remove.isPending}
        onClick={() => remove.mutate(passkey.id)}
      >
        {t('security.passkeys.remove')}
      </button>
    </li>
  );
}
