import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from './alert-dialog.tsx';

/** Spec section 8: user info could not be loaded; offer close and reload. */
export function UserInfoLoadFailure() {
  const { t } = useTranslation();
  const [dialogOpen, setDialogOpen] = useState(true);
  const reload = () => window.location.reload();
  if (dialogOpen) {
    return (
      <AlertDialog
        message={t('messages.userInfoLoadFailed')}
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
  // After closing, the screen stays usable and still says why it is empty.
  return (
    <div className="notice" role="alert">
      <p>{t('messages.userInfoLoadFailed')}</p>
      <button type="button" className="button primary" onClick={reload}>
        {t('actions.reload')}
      </button>
    </div>
  );
}
