import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, type Ref, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { emailProblem } from '../forms/validation.ts';

interface EmailAddressFormProps<Answer> {
  inputId: string;
  label: string;
  submitLabel: string;
  /** Sends the trimmed address; the account service mails a link to it. */
  send: UseMutationResult<Answer, Error, string>;
  /** The service's refusals that are about the address, shown on the field rather than above it. */
  fieldCodes: ReadonlySet<string>;
  sentMessage: (email: string) => string;
  /** Empties the field once sent, ready for another address. */
  clearWhenSent?: boolean;
  focusResult: () => void;
  formRef?: Ref<HTMLFormElement>;
  /** Shown at the top of the form, before its messages. */
  children?: ReactNode;
}

/**
 * One e-mail address sent to the account service, for the sign-in address and for the additional
 * addresses alike: the address is checked as typed before it is sent, and a problem with it,
 * found here or by the service, shows on the field.
 */
export function EmailAddressForm<Answer>(props: EmailAddressFormProps<Answer>) {
  const { send, fieldCodes, focusResult } = props;
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = emailProblem(email);
    setProblem(found);
    if (found) return focusResult();
    send.mutate(email.trim(), {
      onSuccess: () => {
        if (props.clearWhenSent) setEmail('');
      },
      onError: (error) => {
        const code = errorCode(error);
        if (code && fieldCodes.has(code)) setProblem(code);
      },
      onSettled: focusResult,
    });
  };
  return (
    <form ref={props.formRef} className="form inline-form" noValidate onSubmit={submit}>
      {props.children}
      {send.isSuccess && <FormMessage tone="success" message={props.sentMessage(send.variables ?? '')} />}
      {send.isError && !problem && <FormMessage tone="error" message={errorText(send.error)} />}
      <TextField
        id={props.inputId}
        label={props.label}
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={problem && errorText(problem)}
      />
      <button type="submit" className="button" disabled={send.isPending}>
        {send.isPending ? t('actions.sending') : props.submitLabel}
      </button>
    </form>
  );
}
