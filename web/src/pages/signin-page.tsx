import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { X_SIGN_IN_PATH } from '../api/x-sign-in.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { emailProblem } from '../forms/validation.ts';
import { useSignIn } from '../hooks/use-auth.ts';
import { useXSignInAvailable } from '../hooks/use-x-sign-in-available.ts';
import { nextPathFrom } from '../next-path.ts';
import { routePaths } from '../route-paths.ts';
import { PasskeySignInButton, type SecondFactor, SecondStep } from '../security/second-step.tsx';
import { Page } from '../shell/page.tsx';

type Problems = { email?: string; password?: string };

export default function SigninPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const signIn = useSignIn();
  const xAvailable = useXSignInAvailable();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  // The gateway sends a failed X sign-in back here with ?error=x_sign_in_failed, and one that
  // needs its second factor with ?second_factor=totp,passkey.
  const xError = search.get('error');
  const [secondFactor, setSecondFactor] = useState<SecondFactor[] | null>(() => {
    const asked = search.get('second_factor');
    return asked ? (asked.split(',').filter((m) => m === 'totp' || m === 'passkey') as SecondFactor[]) : null;
  });
  const done = () => navigate(nextPathFrom(search), { replace: true });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = {
      ...(emailProblem(email) && { email: 'invalid_email' }),
      ...(password === '' && { password: 'invalid_password' }),
    };
    setProblems(found);
    if (found.email || found.password) return focusResult();
    signIn.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (answer) => {
          if (answer?.status === 'second_factor_required') setSecondFactor(answer.methods ?? ['totp']);
          else done();
        },
        onSettled: focusResult,
      },
    );
  };

  const failure = signIn.error;
  if (secondFactor) {
    return (
      <Page title="signin">
        <SecondStep
          methods={secondFactor}
          onDone={done}
          onRestart={() => {
            setSecondFactor(null);
            setPassword('');
            signIn.reset();
          }}
        />
      </Page>
    );
  }
  return (
    <Page title="signin">
      <form ref={container} className="form" noValidate onSubmit={submit}>
        {failure && <FormMessage tone="error" message={errorText(failure)} />}
        {!failure && xError && <FormMessage tone="error" message={errorText(xError)} />}
        <TextField
          id="signin-email"
          label={t('form.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={problems.email && errorText(problems.email)}
          required
        />
        <TextField
          id="signin-password"
          label={t('form.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={problems.password && errorText(problems.password)}
          required
        />
        <button type="submit" className="button primary wide" disabled={signIn.isPending}>
          {signIn.isPending ? t('app.loading') : t('signin.submit')}
        </button>
      </form>
      <div className="alternative-sign-in">
        <p className="divider">
          <span>{t('signin.or')}</span>
        </p>
        <PasskeySignInButton onDone={done} />
        {xAvailable && (
          <a className="button wide x-button" href={X_SIGN_IN_PATH}>
            {t('signin.withX')}
          </a>
        )}
      </div>
      <ul className="form-links">
        <li>
          <Link to={routePaths.resetPassword}>{t('signin.forgot')}</Link>
        </li>
        <li>
          <Link to={routePaths.signup}>{t('signin.noAccount')}</Link>
        </li>
      </ul>
    </Page>
  );
}
