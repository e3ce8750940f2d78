import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { emailProblem } from '../forms/validation.ts';
import { useRequestPasswordReset } from '../hooks/use-auth.ts';
import { languageFromTag } from '../i18n/language.ts';
import { routePaths } from '../route-paths.ts';

export function ResetRequestForm() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const request = useRequestPasswordReset();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = emailProblem(email);
    setProblem(found);
    if (found) return focusResult();
    request.mutate(
      { email: email.trim(), lang: languageFromTag(i18n.resolvedLanguage) },
      { onSettled: focusResult },
    );
  };

  return (
    <form ref={container} className="form" noValidate onSubmit={submit}>
      {request.isSuccess && <FormMessage tone="success" message={t('resetPassword.requested')} />}
      {request.isError && (
        <FormMessage
          tone="error"
          message={`${errorText('reset_request_failed')} ${errorText(request.error)}`}
        />
      )}
      <p className="lead">{t('resetPassword.requestLead')}</p>
      <TextField
        id="reset-email"
        label={t('form.email')}
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={problem && errorText(problem)}
        required
      />
      <button type="submit" className="button primary wide" disabled={request.isPending}>
        {request.isPending ? t('actions.sending') : t('resetPassword.requestSubmit')}
      </button>
      <p className="form-links">
        <Link to={routePaths.signin}>{t('resetPassword.backToSignin')}</Link>
      </p>
    </form>
  );
}
