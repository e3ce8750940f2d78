import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { emailProblem, passwordProblem } from '../forms/validation.ts';
import { useSignUp } from '../hooks/use-auth.ts';
import { languageFromTag } from '../i18n/language.ts';
import { LegalLinks } from '../legal/legal-links.tsx';
import { routePaths } from '../route-paths.ts';
import { Page } from '../shell/page.tsx';
import { PlanTable, TRIAL_PLANS } from '../signup/plan-table.tsx';

type Field = 'email' | 'password' | 'agree';
type Problems = Partial<Record<Field, string>>;

/** Which field a refusal of POST /api/signup belongs to; others are shown for the whole form. */
const FIELD_OF_CODE: Record<string, Field> = {
  invalid_email: 'email',
  email_confusable: 'email',
  password_too_short: 'password',
  password_too_long: 'password',
  invalid_password: 'password',
  terms_not_agreed: 'agree',
};

export default function SignupPage() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const signUp = useSignUp();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agree, setAgree] = useState(false);
  const [search] = useSearchParams();
  // The landing page's plan table links here with ?plan=<id>; anything else starts on the first plan.
  const [plan, setPlan] = useState<number>(
    () => TRIAL_PLANS.find((trial) => String(trial.id) === search.get('plan'))?.id ?? 3,
  );
  const [problems, setProblems] = useState<Problems>({});
  // A field's message goes once the user changes that field.
  const edit =
    <Value,>(field: Field, set: (value: Value) => void) =>
    (value: Value) => {
      set(value);
      setProblems(({ [field]: _, ...others }) => others);
    };

  if (signUp.isSuccess) {
    return (
      <Page title="signup">
        <div className="sent" data-form-message="">
          <h2>{t('signup.sentTitle')}</h2>
          <p role="status">{t('signup.sentBody', { email: signUp.variables.email })}</p>
          <p className="field-hint">{t('signup.sentHint')}</p>
        </div>
      </Page>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = {};
    const emailCode = emailProblem(email);
    const passwordCode = passwordProblem(password);
    if (emailCode) found.email = emailCode;
    if (passwordCode) found.password = passwordCode;
    if (!agree) found.agree = 'terms_not_agreed';
    setProblems(found);
    if (Object.keys(found).length > 0) return focusResult();
    signUp.mutate(
      {
        email: email.trim(),
        password,
        agree,
        lang: languageFromTag(i18n.resolvedLanguage),
        plan,
      },
      {
        onError: (error) => {
          const code = errorCode(error);
          const field = code ? FIELD_OF_CODE[code] : undefined;
          if (field && code) setProblems({ [field]: code });
        },
        onSettled: focusResult,
      },
    );
  };

  const failureCode = errorCode(signUp.error);
  const formFailure = signUp.error && !(failureCode && FIELD_OF_CODE[failureCode]);
  const agreeError = problems.agree && errorText(problems.agree);
  return (
    <Page title="signup">
      <p className="lead">{t('signup.lead')}</p>
      <form ref={container} className="form" noValidate onSubmit={submit}>
        {formFailure && <FormMessage tone="error" message={errorText(signUp.error)} />}
        <TextField
          id="signup-email"
          label={t('form.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={edit('email', setEmail)}
          error={problems.email && errorText(problems.email)}
          required
        />
        <TextField
          id="signup-password"
          label={t('form.password')}
          type="password"
          autoComplete="new-password"
          hint={t('form.passwordHint')}
          value={password}
          onChange={edit('password', setPassword)}
          error={problems.password && errorText(problems.password)}
          required
        />
        <PlanTable value={plan} onChange={setPlan} />
        <section className="terms" aria-labelledby="terms-title">
          <h2 id="terms-title" className="field-label">
            {t('signup.terms')}
          </h2>
          <p className="terms-body">{t('signup.termsBody')}</p>
          <LegalLinks />
        </section>
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={agree}
              onChange={(event) => edit('agree', setAgree)(event.target.checked)}
              aria-invalid={agreeError ? true : undefined}
              aria-describedby={agreeError ? 'signup-agree-error' : undefined}
            />
            {t('signup.agree')}
          </label>
          {agreeError && (
            <p id="signup-agree-error" className="field-error">
              {agreeError}
            </p>
          )}
        </div>
        <button type="submit" className="button primary wide" disabled={signUp.isPending}>
          {signUp.isPending ? t('actions.sending') : t('signup.submit')}
        </button>
      </form>
      <ul className="form-links">
        <li>
          <Link to={routePaths.signin}>{t('signup.haveAccount')}</Link>
        </li>
      </ul>
    </Page>
  );
}
