import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { ChunkLoadError } from '../chunk-load.ts';

/**
 * What a route shows when its screen could not load or crashed. A missing chunk usually
 * means a new version was deployed while this page was open; a reload fetches it.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message =
    error instanceof ChunkLoadError ? t('messages.chunkLoadFailed') : t('messages.unexpectedError');
  return (
    <div className="notice" role="alert">
      <p>{message}</p>
      <button type="button" className="button primary" onClick={() => window.location.reload()}>
        {t('actions.reload')}
      </button>
    </div>
  );
}
