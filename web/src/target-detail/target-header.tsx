import { useTranslation } from 'react-i18next';
import type { TargetVersion } from '../api/history.ts';
import type { TargetRow } from '../api/targets.ts';
import { formatDateTime } from '../dashboard/target-time.ts';
import { TargetActions } from './target-actions.tsx';

/**
 * Label, URL, monitoring state (and failing, docs/product.md#failure-alerts), interval and the
 * last update and check, with the site's actions.
 */
export function TargetHeader({
  version,
  site,
  timeZone,
}: {
  version: TargetVersion;
  site: TargetRow;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const time = (iso: string | null) =>
    iso ? formatDateTime(iso, i18n.language, timeZone) : t('siteDetail.never');
  const minutes = site.interval_minutes;
  const interval =
    minutes >= 60 && minutes % 60 === 0
      ? t('siteDetail.intervalHours', { count: minutes / 60 })
      : t('siteDetail.intervalMinutes', { count: minutes });
  return (
    <section className="detail-section site-header" aria-labelledby="site-label">
      <h2 id="site-label" className="site-label">
        {site.label || site.url}
        {site.new && <span className="badge badge-new">{t('siteDetail.newBadge')}</span>}
      </h2>
      <dl className="site-facts">
        <div>
          <dt>{t('siteDetail.url')}</dt>
          <dd>
            <a href={site.url} target="_blank" rel="noopener noreferrer" className="site-url">
              {site.url}
            </a>
          </dd>
        </div>
        <div>
          <dt>{t('siteDetail.state')}</dt>
          <dd>
            <span data-testid="site-state" className={`badge ${site.valid ? 'badge-on' : 'badge-paused'}`}>
              {site.valid ? t('siteDetail.monitoring') : t('siteDetail.paused')}
            </span>
            {site.failing && <span className="badge badge-failing">{t('siteDetail.failing')}</span>}
          </dd>
        </div>
        {minutes > 0 && (
          <div>
            <dt>{t('siteDetail.interval')}</dt>
            <dd>{interval}</dd>
          </div>
        )}
        <div>
          <dt>{t('siteDetail.updated')}</dt>
          <dd>{time(site.updated)}</dd>
        </div>
        <div>
          <dt>{t('siteDetail.checked')}</dt>
          <dd>{time(site.checked)}</dd>
        </div>
      </dl>
      {site.failing && (
        <p className="form-message error site-failing-notice" role="note" data-testid="site-failing">
          {t('siteDetail.failingNotice', {
            since: time(site.failing.since),
            what: t(`dashboard.failureKinds.${site.failing.kind}`),
          })}
        </p>
      )}
      <TargetActions version={version} site={site} />
    </section>
  );
}
