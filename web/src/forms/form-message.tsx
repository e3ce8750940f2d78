/**
 * A message about the whole form. Errors are alerts (announced at once); successes are
 * status messages. Focusable so the form can move focus to it after a submit.
 */
export function FormMessage({ tone, message }: { tone: 'error' | 'success'; message: string }) {
  return (
    <p
      className={`form-message ${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
      tabIndex={-1}
      data-form-message=""
    >
      {message}
    </p>
  );
}
