import { useTranslation } from 'react-i18next';
import type { TargetRow } from '../api/targets.ts';

/** NEW (an update not seen yet), proxy, paused and failing, beside the site's name. */
export function TargetBadges({ site }: { site: TargetRow }) {
  const { t } = useTranslation();
  return (
    <>
      {site.new && <span className="badge site-badge-new">{t('dashboard.sites.badges.new')}</span>}
      {site.proxy && <span className="badge site-badge-proxy">{t('dashboard.sites.badges.proxy')}</span>}
      {!site.valid && <span className="badge site-badge-paused">{t('dashboard.sites.badges.paused')}</span>}
      {site.failing && (
        <span className="badge site-badge-failing">{t('dashboard.sites.badges.failing')}</span>
      )}
    </>
  );
}
