import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from './alert-dialog.tsx';

/**
 * docs/product.md#screens: what a screen needs could not be loaded; a dialog offers close and reload.
 * Closed, the screen stays usable and, while it has nothing to show (`notice`), still says why.
 * Shown afresh (open) each time it is mounted, i.e. for each new failure.
 */
export function LoadFailure({ message, notice = true }: { message: string; notice?: boolean }) {
  const { t } = useTranslation();
  const [dialogOpen, setDialogOpen] = useState(true);
  const reload = () => window.location.reload();
  if (dialogOpen) {
    return (
      <AlertDialog
        message={message}
        onClose={() => setDialogOpen(false)}
        actions={
          <>
            <button type="button" className="button" onClick={() => setDialogOpen(false)}>
              {t('actions.close')}
            </button>
            <button type="button" className="button primary" onClick={reload}>
              {t('actions.reload')}
            </button>
          </>
        }
      />
    );
  }
  if (!notice) return null;
  return (
    <div className="notice" role="alert">
      <p>{message}</p>
      <button type="button" className="button primary" onClick={reload}>
        {t('actions.reload')}
      </button>
    </div>
  );
}
