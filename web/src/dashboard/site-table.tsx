import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SiteRow } from '../api/targets.ts';
import { DeleteButton, PauseButton, type RequestSiteAction, siteName } from './site-action-buttons.tsx';
import { SiteBadges } from './site-badges.tsx';
import type { SiteSort, SortKey } from './site-order.ts';
import { sitePath } from './site-time.ts';
import { useSiteTime } from './use-site-time.ts';

type Props = {
  sites: SiteRow[];
  sort: SiteSort;
  onSort: (key: SortKey) => void;
  showUrls: boolean;
  busy: boolean;
  onAction: RequestSiteAction;
};

/** Wide screens: the site list as a table sorted by clicking a column heading. */
export function SiteTable({ sites, sort, onSort, showUrls, busy, onAction }: Props) {
  const { t } = useTranslation();
  const time = useSiteTime();
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
                  {siteName(site)}
                </Link>
                <SiteBadges site={site} />
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
