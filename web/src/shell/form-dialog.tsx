import { type FormEvent, type ReactNode, useEffect, useRef } from 'react';
import './form-dialog.css';

/**
 * A modal form: a title, a lead, the fields, then a dismiss button and the submit button.
 * Escape or dismissing closes the dialog, which calls onClose. `name` prefixes the title's id
 * and the dialog's class (`<name>-dialog`, for its width).
 */
export function FormDialog({
  name,
  title,
  lead,
  dismissLabel,
  submitButton,
  onSubmit,
  onClose,
  children,
}: {
  name: string;
  title: string;
  lead: string;
  dismissLabel: string;
  submitButton: ReactNode;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <dialog
      ref={dialog}
      className={`form-dialog ${name}-dialog`}
      aria-labelledby={`${name}-title`}
      onClose={onClose}
    >
      <form className="form" noValidate onSubmit={submit}>
        <h2 id={`${name}-title`} className="section-title">
          {title}
        </h2>
        <p className="lead">{lead}</p>
        {children}
        <div className="alert-actions">
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            {dismissLabel}
          </button>
          {submitButton}
        </div>
      </form>
    </dialog>
  );
}
