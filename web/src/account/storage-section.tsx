import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { useStorageUsed } from '../hooks/use-history.ts';
import { AccountSection } from './account-section.tsx';

/** Bytes in the reader's language: 1.2 MB, 340 kB (decimal units, as storage is sold). */
export function formatBytes(bytes: number, lang: string): string {
  // Intl spells the byte out ("999 byte"); B reads the same in both languages.
  if (bytes < 1000) return `${new Intl.NumberFormat(lang).format(bytes)} B`;
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** The storage the account's history takes (docs/product.md#history). */
export function StorageSection() {
  const { t, i18n } = useTranslation();
  const storage = useStorageUsed();
  const size = (bytes: number) => formatBytes(bytes, i18n.language);
  return (
    <AccountSection id="storage" title={t('account.storage')}>
      <p className="lead">{t('account.storageLead')}</p>
      {storage.isError && <FormMessage tone="error" message={t('account.storageLoadFailed')} />}
      {storage.data && (
        <>
          <p className="storage-used" data-testid="storage-used">
            {t('account.storageUsed', { used: size(storage.data.used_bytes) })}
          </p>
          <p className="muted">
            {t('account.storageDetail', {
              rows: size(storage.data.row_bytes),
              blobs: size(storage.data.blob_bytes),
            })}
          </p>
        </>
      )}
    </AccountSection>
  );
}
