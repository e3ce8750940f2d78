import type { ChangeEvent, HTMLAttributes, HTMLInputAutoCompleteAttribute } from 'react';

type TextFieldProps = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'url';
  autoComplete?: HTMLInputAutoCompleteAttribute;
  /** Shown under the field, read with it by screen readers. */
  hint?: string;
  /** A translated message; marks the field invalid and is announced with it. */
  error?: string | undefined;
  required?: boolean;
  disabled?: boolean;
  /** The keyboard a phone shows: `numeric` for a one-time code. */
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
};

/** A labelled input whose hint and error are tied to it with aria-describedby. */
export function TextField({
  id,
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  hint,
  error,
  required,
  disabled,
  inputMode,
}: TextFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        className="input"
        type={type}
        value={value}
        autoComplete={autoComplete}
        required={required}
        disabled={disabled}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
      />
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
