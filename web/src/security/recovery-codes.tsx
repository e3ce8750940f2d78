import { useTranslation } from 'react-i18next';
import { CopyButton } from '../api-access/copy-button.tsx';

/** The recovery codes, shown once right after they are made. */
export function RecoveryCodesOnce({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="security-once" role="status" data-testid="recovery-codes">
      <p className="security-once-title">{t('security.recovery.title')}</p>
      <p>{t('security.recovery.once')}</p>
      <ol id="recovery-code-list" className="recovery-code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="button-row">
        <CopyButton text={codes.join('\n')} describedBy="recovery-code-list" />
        <button type="button" className="button small" onClick={onClose}>
          {t('security.recovery.saved')}
        </button>
      </div>
    </div>
  );
}
