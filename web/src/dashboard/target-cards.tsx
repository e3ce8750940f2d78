import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TargetRow } from '../api/targets.ts';
import { DeleteButton, PauseButton, type RequestTargetAction, targetName } from './target-action-buttons.tsx';
import { TargetBadges } from './target-badges.tsx';
import { TargetFailing } from './target-failing.tsx';
import { sitePath } from './target-time.ts';
import { useTargetTime } from './use-target-time.ts';

/** Narrow screens: one card per site, in the order chosen above the list. */
export function TargetCards({
  sites,
  busy,
  onAction,
}: {
  sites: TargetRow[];
  busy: boolean;
  onAction: RequestTargetAction;
}) {
  const { t } = useTranslation();
  const time = useTargetTime();
  const never = t('dashboard.sites.never');
  return (
    <ul className="site-cards">
      {sites.map((site) => (
        <li key={site.id} className={site.valid ? 'site-card' : 'site-card site-paused'}>
          <div className="site-card-head">
            <span className="site-no">{site.no}</span>
            <Link to={sitePath(site)} className="site-link">
              {targetName(site)}
            </Link>
            <TargetBadges site={site} />
          </div>
          <TargetFailing site={site} />
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
