import { useTranslation } from 'react-i18next';

export function LoadingIndicator() {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {t('app.loading')}
    </p>
  );
}
