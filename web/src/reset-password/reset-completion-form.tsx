import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { passwordProblem } from '../forms/validation.ts';
import { useResetPassword } from '../hooks/use-auth.ts';
import { routePaths } from '../route-paths.ts';

const PASSWORD_CODES = new Set(['password_too_short', 'password_too_long', 'invalid_password']);

export function ResetCompletionForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const reset = useResetPassword();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string>();

  if (reset.isSuccess) {
    return (
      <>
        <FormMessage tone="success" message={t('resetPassword.done')} />
        <p>
          <Link className="button primary" to={routePaths.signin}>
            {t('resetPassword.toSignin')}
          </Link>
        </p>
      </>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = passwordProblem(password);
    setProblem(found);
    if (found) return focusResult();
    reset.mutate(
      { token, password },
      {
        onError: (error) => {
          const code = errorCode(error);
          if (code && PASSWORD_CODES.has(code)) setProblem(code);
        },
        onSettled: focusResult,
      },
    );
  };

  const code = errorCode(reset.error);
  const formFailure = reset.error && !(code && PASSWORD_CODES.has(code));
  return (
    <form ref={container} className="form" noValidate onSubmit={submit}>
      {formFailure && (
        <FormMessage
          tone="error"
          message={
            code === 'reset_link_invalid'
              ? errorText(reset.error)
              : `${errorText('reset_failed')} ${errorText(reset.error)}`
          }
        />
      )}
      {code === 'reset_link_invalid' ? (
        <p>
          <Link to={routePaths.resetPassword}>{t('resetPassword.requestSubmit')}</Link>
        </p>
      ) : (
        <>
          <TextField
            id="reset-password"
            label={t('resetPassword.newPassword')}
            type="password"
            autoComplete="new-password"
            hint={t('form.passwordHint')}
            value={password}
            onChange={setPassword}
            error={problem && errorText(problem)}
            required
          />
          <button type="submit" className="button primary wide" disabled={reset.isPending}>
            {reset.isPending ? t('actions.sending') : t('resetPassword.submit')}
          </button>
        </>
      )}
    </form>
  );
}
