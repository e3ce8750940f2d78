import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadExport } from '../api/account-data.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';

/** All the account's data as one ZIP, saved by the browser under the gateway's file name. */
export function ExportButton() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const download = useMutation({
    mutationFn: downloadExport,
    onSuccess: ({ blob, fileName }) => {
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(url);
    },
  });
  return (
    <div className="account-data-export" data-testid="export-data">
      <p className="lead">{t('accountData.exportLead')}</p>
      {download.isSuccess && <FormMessage tone="success" message={t('accountData.exported')} />}
      {download.isError && <FormMessage tone="error" message={errorText(download.error)} />}
      <button
        type="button"
        className="button"
        disabled={download.isPending}
        onClick={() => download.mutate()}
      >
        {download.isPending ? t('accountData.exporting') : t('accountData.export')}
      </button>
    </div>
  );
}
