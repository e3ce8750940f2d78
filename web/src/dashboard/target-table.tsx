import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TargetRow } from '../api/targets.ts';
import { DeleteButton, PauseButton, type RequestTargetAction, targetName } from './target-action-buttons.tsx';
import { TargetBadges } from './target-badges.tsx';
import { TargetFailing } from './target-failing.tsx';
import type { SortKey, TargetSort } from './target-order.ts';
import { sitePath } from './target-time.ts';
import { useTargetTime } from './use-target-time.ts';

type Props = {
  sites: TargetRow[];
  sort: TargetSort;
  onSort: (key: SortKey) => void;
  showUrls: boolean;
  busy: boolean;
  onAction: RequestTargetAction;
};

/** Wide screens: the site list as a table sorted by clicking a column heading. */
export function TargetTable({ sites, sort, onSort, showUrls, busy, onAction }: Props) {
  const { t } = useTranslation();
  const time = useTargetTime();
  const heading = (key: SortKey) => {
    const active = sort.key === key;
    return (
      <th
        scope="col"
        className={`site-col-${key}`}
        aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
      >
        <button type="button" className="sort-button" onClick={() => onSort(key)}>
          {t(`dashboard.sites.columns.${key}`)}
          <span className="sort-mark" aria-hidden="true">
            {active ? (sort.descending ? '▼' : '▲') : '↕'}
          </span>
        </button>
      </th>
    );
  };
  return (
    <div className="site-table-frame">
      <table className="site-table">
        <caption className="visually-hidden">{t('dashboard.sites.caption')}</caption>
        <thead>
          <tr>
            {heading('no')}
            {heading('label')}
            {showUrls && heading('url')}
            {heading('updated')}
            {heading('checked')}
            <th scope="col" className="site-col-action">
              {t('dashboard.sites.columns.pause')}
            </th>
            <th scope="col" className="site-col-action">
              {t('dashboard.sites.columns.delete')}
            </th>
          </tr>
        </thead>
        <tbody>
          {sites.map((site) => (
            <tr key={site.id} className={site.valid ? undefined : 'site-paused'}>
              <td className="site-no">{site.no}</td>
              <td className="site-label">
                <Link to={sitePath(site)} className="site-link">
                  {targetName(site)}
                </Link>
                <TargetBadges site={site} />
                <TargetFailing site={site} />
              </td>
              {showUrls && <td className="site-url">{site.url}</td>}
              <td className="site-time">{site.updated ? time(site.updated) : t('dashboard.sites.never')}</td>
              <td className="site-time">{site.checked ? time(site.checked) : t('dashboard.sites.never')}</td>
              <td>
                <PauseButton site={site} busy={busy} onAction={onAction} />
              </td>
              <td>
                <DeleteButton site={site} busy={busy} onAction={onAction} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
