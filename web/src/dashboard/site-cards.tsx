import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SiteRow } from '../api/targets.ts';
import { DeleteButton, PauseButton, type RequestSiteAction, siteName } from './site-action-buttons.tsx';
import { SiteBadges } from './site-badges.tsx';
import { sitePath } from './site-time.ts';
import { useSiteTime } from './use-site-time.ts';

/** Narrow screens: one card per site, in the order chosen above the list. */
export function SiteCards({
  sites,
  busy,
  onAction,
}: {
  sites: SiteRow[];
  busy: boolean;
  onAction: RequestSiteAction;
}) {
  const { t } = useTranslation();
  const time = useSiteTime();
  const never = t('dashboard.sites.never');
  return (
    <ul className="site-cards">
      {sites.map((site) => (
        <li key={site.id} className={site.valid ? 'site-card' : 'site-card site-paused'}>
          <div className="site-card-head">
            <span className="site-no">{site.no}</span>
            <Link to={sitePath(site)} className="site-link">
              {siteName(site)}
            </Link>
            <SiteBadges site={site} />
          </div>
          <p className="site-card-times">
            <span>{t('dashboard.sites.updatedAt', { at: site.updated ? time(site.updated) : never })}</span>
            <span>{t('dashboard.sites.checkedAt', { at: site.checked ? time(site.checked) : never })}</span>
          </p>
          <div className="button-row">
            <PauseButton site={site} busy={busy} onAction={onAction} />
            <DeleteButton site={site} busy={busy} onAction={onAction} />
          </div>
        </li>
      ))}
    </ul>
  );
}
