import { useTranslation } from 'react-i18next';
import type { HistoryPage } from '../api/history.ts';
import { HistoryEntryItem } from './history-entry.tsx';
import type { DiffLayout, HistoryView, HistoryViewChange } from './history-view.ts';

/** A page of checks, newest first, with newer/older paging. */
export function HistoryList({
  page,
  view,
  layout,
  loading,
  onChange,
}: {
  page: HistoryPage;
  view: HistoryView;
  layout: DiffLayout;
  loading: boolean;
  onChange: (change: HistoryViewChange) => void;
}) {
  const { t } = useTranslation();
  const { older_cursor: older, newer_cursor: newer } = page;
  return (
    <div className="history-list" aria-busy={loading}>
      {page.entries.length === 0 ? (
        <p className="muted">{view.day ? t('siteDetail.emptyDay') : t('siteDetail.empty')}</p>
      ) : (
        <ol className="history-entries">
          {page.entries.map((entry) => (
            <HistoryEntryItem key={entry.check_id} entry={entry} timeZone={page.time_zone} layout={layout} />
          ))}
        </ol>
      )}
      {(older || newer) && (
        <nav className="history-paging" aria-label={t('siteDetail.history')}>
          <button
            type="button"
            className="button"
            disabled={!newer || loading}
            onClick={() => newer && onChange({ type: 'newer', cursor: newer })}
          >
            {t('siteDetail.newer')}
          </button>
          <button
            type="button"
            className="button"
            disabled={!older || loading}
            onClick={() => older && onChange({ type: 'older', cursor: older })}
          >
            {t('siteDetail.older')}
          </button>
        </nav>
      )}
    </div>
  );
}
