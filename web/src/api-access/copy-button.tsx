import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Copies `text` and says so on the button; the value beside it stays selectable for a manual copy.
 * `describedBy` names what is copied, for a screen reader among several copy buttons.
 */
export function CopyButton({ text, describedBy }: { text: string; describedBy?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(true));
  };
  return (
    <button type="button" className="button small" aria-describedby={describedBy} onClick={copy}>
      {copied ? t('apiAccess.copied') : t('apiAccess.copy')}
    </button>
  );
}
