import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { ReprocessDeclined, useReprocess } from '../hooks/use-billing.ts';

/**
 * "Reprocess" (docs/product.md#subscription): pays the open invoice again with the card on file,
 * which lifts a failed renewal or a hold. A declined card is said as such, not as a failed call.
 */
export function ReprocessButton() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const reprocess = useReprocess();
  const failure =
    reprocess.error instanceof ReprocessDeclined
      ? t('billing.reprocess.declined')
      : errorText(reprocess.error);
  return (
    <div className="reprocess">
      {reprocess.isError && <FormMessage tone="error" message={failure} />}
      {reprocess.isSuccess && <FormMessage tone="success" message={t('billing.reprocess.paid')} />}
      <button
        type="button"
        className="button primary"
        disabled={reprocess.isPending}
        onClick={() => reprocess.mutate(undefined)}
        data-testid="reprocess"
      >
        {reprocess.isPending ? t('billing.reprocess.running') : t('billing.reprocess.button')}
      </button>
    </div>
  );
}
