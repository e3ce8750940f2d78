import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signInWithCode } from '../api/security.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { queryKeys } from '../query-keys.ts';
import { passkeysSupported, signInPasskey } from './passkey-ceremony.ts';
import './security.css';

export type SecondFactor = 'totp' | 'passkey';

/** A sign-in's end: the account and user_info are read afresh for the new session. */
export function useSignedIn(onDone: () => void) {
  const queryClient = useQueryClient();
  return async () => {
    queryClient.removeQueries({ queryKey: queryKeys.account });
    await queryClient.invalidateQueries({ queryKey: queryKeys.userInfo });
    onDone();
  };
}

/**
 * The sign-in's second step (docs/product.md#two-factor-sign-in): the app's code, a recovery code
 * instead, or a passkey; a waiting sign-in that expired starts over with the password.
 */
export function SecondStep({
  methods,
  onDone,
  onRestart,
}: {
  methods: SecondFactor[];
  onDone: () => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const signedIn = useSignedIn(onDone);
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const verify = useMutation({ mutationFn: signInWithCode, onSuccess: signedIn });
  const passkey = useMutation({ mutationFn: signInPasskey, onSuccess: signedIn });
  const hasTotp = methods.includes('totp');
  const canPasskey = methods.includes('passkey') && passkeysSupported();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Nothing typed yet: the field, which says what it wants, gets the focus back.
    if (code.trim() === '') return document.getElementById('signin-code')?.focus();
    verify.mutate(useRecovery ? { recovery_code: code.trim() } : { code: code.trim() }, {
      onSettled: focusResult,
    });
  };
  const failure = verify.error ?? passkey.error;
  const expired = errorCode(failure) === 'sign_in_expired';
  return (
    <form ref={container} className="form second-step" noValidate onSubmit={submit} data-testid="second-step">
      <h2 className="section-title">{t('security.signin.title')}</h2>
      {failure && <FormMessage tone="error" message={errorText(failure)} />}
      {expired ? (
        <button type="button" className="button primary wide" onClick={onRestart}>
          {t('security.signin.restart')}
        </button>
      ) : (
        <>
          {hasTotp && (
            <>
              {!useRecovery && <p className="lead second-step-lead">{t('security.signin.lead')}</p>}
              <TextField
                key={useRecovery ? 'recovery' : 'code'}
                id="signin-code"
                label={useRecovery ? t('security.signin.recovery') : t('security.signin.code')}
                hint={useRecovery ? t('security.signin.recoveryHint') : undefined}
                autoComplete="one-time-code"
                inputMode={useRecovery ? 'text' : 'numeric'}
                value={code}
                onChange={setCode}
                required
              />
              <button type="submit" className="button primary wide" disabled={verify.isPending}>
                {verify.isPending ? t('app.loading') : t('security.signin.submit')}
              </button>
            </>
          )}
          {canPasskey && (
            <>
              {hasTotp && (
                <p className="divider">
                  <span>{t('signin.or')}</span>
                </p>
              )}
              <button
                type="button"
                className={`button wide${hasTotp ? '' : ' primary'}`}
                disabled={passkey.isPending}
                onClick={() => passkey.mutate()}
              >
                {t('security.signin.usePasskey')}
              </button>
            </>
          )}
          {hasTotp && (
            <button
              type="button"
              className="second-step-switch"
              onClick={() => {
                setUseRecovery(!useRecovery);
                setCode('');
                verify.reset();
              }}
            >
              {useRecovery ? t('security.signin.useCode') : t('security.signin.useRecovery')}
            </button>
          )}
        </>
      )}
    </form>
  );
}

/** Passwordless: any passkey of this site signs its account in. */
export function PasskeySignInButton({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const signedIn = useSignedIn(onDone);
  const passkey = useMutation({ mutationFn: signInPasskey, onSuccess: signedIn });
  if (!passkeysSupported()) return null;
  return (
    <>
      {passkey.isError && <FormMessage tone="error" message={errorText(passkey.error)} />}
      <button
        type="button"
        className="button wide"
        disabled={passkey.isPending}
        onClick={() => passkey.mutate()}
      >
        {t('security.signin.withPasskey')}
      </button>
    </>
  );
}
