import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { passwordProblem } from '../forms/validation.ts';
import { useChangePassword } from '../hooks/use-account.ts';
import { AccountSection } from './account-section.tsx';

type Problems = { current?: string; next?: string };

/** Which field a refusal belongs to. */
const FIELD_OF_CODE: Record<string, keyof Problems> = {
  current_password_mismatch: 'current',
  no_changes: 'next',
  password_too_short: 'next',
  password_too_long: 'next',
  invalid_password: 'next',
};

/** Change the password; an X user who has none sets one without the current password. */
export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const change = useChangePassword();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [problems, setProblems] = useState<Problems>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = {};
    if (hasPassword && current === '') found.current = 'current_password_mismatch';
    const nextCode = passwordProblem(next);
    if (nextCode) found.next = nextCode;
    setProblems(found);
    if (found.current || found.next) return focusResult();
    change.mutate(hasPassword ? { current_password: current, new_password: next } : { new_password: next }, {
      onSuccess: () => {
        setCurrent('');
        setNext('');
      },
      onError: (error) => {
        const code = errorCode(error);
        const field = code ? FIELD_OF_CODE[code] : undefined;
        if (field && code) setProblems({ [field]: code });
      },
      onSettled: focusResult,
    });
  };

  const code = errorCode(change.error);
  const formFailure = change.isError && !(code && FIELD_OF_CODE[code]);
  return (
    <AccountSection id="password" title={t('account.password')}>
      <form ref={container} className="form inline-form" noValidate onSubmit={submit}>
        {change.isSuccess && <FormMessage tone="success" message={t('account.passwordChanged')} />}
        {formFailure && <FormMessage tone="error" message={errorText(change.error)} />}
        {!hasPassword && <p className="lead">{t('account.passwordSetLead')}</p>}
        {hasPassword && (
          <TextField
            id="account-current-password"
            label={t('account.passwordCurrent')}
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={setCurrent}
            error={problems.current && errorText(problems.current)}
          />
        )}
        <TextField
          id="account-new-password"
          label={t('account.passwordNew')}
          type="password"
          autoComplete="new-password"
          hint={t('form.passwordHint')}
          value={next}
          onChange={setNext}
          error={problems.next && errorText(problems.next)}
        />
        <button type="submit" className="button" disabled={change.isPending}>
          {change.isPending
            ? t('actions.saving')
            : hasPassword
              ? t('account.passwordChange')
              : t('account.passwordSet')}
        </button>
      </form>
    </AccountSection>
  );
}
