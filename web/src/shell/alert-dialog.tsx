import { type ReactNode, useEffect, useRef } from 'react';

/** A modal message with its own buttons; Escape or the close action calls onClose. */
export function AlertDialog({
  message,
  actions,
  onClose,
}: {
  message: string;
  actions: ReactNode;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="alert-dialog"
      role="alertdialog"
      // The message is the whole dialog, so it names it too (axe: aria-dialog-name).
      aria-labelledby="alert-message"
      aria-describedby="alert-message"
      onClose={onClose}
    >
      <p id="alert-message">{message}</p>
      <div className="alert-actions">{actions}</div>
    </dialog>
  );
}
