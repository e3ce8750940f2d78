import { useTranslation } from 'react-i18next';
import type { SiteAction, SiteRow } from '../api/targets.ts';

export type RequestSiteAction = (action: SiteAction, site: SiteRow) => void;

/** What names a site to a screen reader when its buttons have only a verb on them. */
export function siteName(site: SiteRow): string {
  return site.label || site.url;
}

/** Pause a monitoring site, or resume a paused one when the plan has a free slot (spec section 4). */
export function PauseButton({
  site,
  busy,
  onAction,
}: {
  site: SiteRow;
  busy: boolean;
  onAction: RequestSiteAction;
}) {
  const { t } = useTranslation();
  const label = siteName(site);
  if (site.valid) {
    return (
      <button
        type="button"
        className="button small"
        aria-label={t('dashboard.actions.pauseSite', { label })}
        aria-disabled={busy || undefined}
        onClick={() => onAction('pause', site)}
      >
        {t('dashboard.actions.pause')}
      </button>
    );
  }
  return (
    <button
      type="button"
      className="button small"
      aria-label={t('dashboard.actions.resumeSite', { label })}
      aria-disabled={busy || undefined}
      disabled={!site.resumable}
      title={site.resumable ? undefined : t('dashboard.actions.resumeUnavailable')}
      onClick={() => onAction('resume', site)}
    >
      {t('dashboard.actions.resume')}
    </button>
  );
}

export function DeleteButton({
  site,
  busy,
  onAction,
}: {
  site: SiteRow;
  busy: boolean;
  onAction: RequestSiteAction;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button small danger"
      aria-label={t('dashboard.actions.deleteSite', { label: siteName(site) })}
      aria-disabled={busy || undefined}
      onClick={() => onAction('delete', site)}
    >
      {t('dashboard.actions.delete')}
    </button>
  );
}
