import { useTranslation } from 'react-i18next';
import type { SiteAction, SiteRow } from '../api/targets.ts';

export type RequestSiteAction = (action: SiteAction, site: SiteRow) => void;

/** What names a site to a screen reader when its buttons have only a verb on them. */
export function siteName(site: SiteRow): string {
  return site.label || site.url;
}

type SiteButtonProps = { site: SiteRow; busy: boolean; onAction: RequestSiteAction };

/**
 * A site's small action button: a verb on it, the verb with the site's name for screen readers;
 * while another action runs it stays focusable but says it is unavailable (aria-disabled).
 */
function SiteActionButton({
  action,
  site,
  busy,
  onAction,
  label,
  name,
  danger = false,
  unavailable,
}: SiteButtonProps & {
  action: SiteAction;
  label: string;
  name: string;
  danger?: boolean;
  unavailable?: string;
}) {
  return (
    <button
      type="button"
      className={danger ? 'button small danger' : 'button small'}
      aria-label={name}
      aria-disabled={busy || undefined}
      disabled={unavailable !== undefined}
      title={unavailable}
      onClick={() => onAction(action, site)}
    >
      {label}
    </button>
  );
}

/** Pause a monitoring site, or resume a paused one when the plan has a free slot (docs/product.md#quotas). */
export function PauseButton(props: SiteButtonProps) {
  const { t } = useTranslation();
  const label = siteName(props.site);
  if (props.site.valid) {
    return (
      <SiteActionButton
        {...props}
        action="pause"
        label={t('dashboard.actions.pause')}
        name={t('dashboard.actions.pauseSite', { label })}
      />
    );
  }
  return (
    <SiteActionButton
      {...props}
      action="resume"
      label={t('dashboard.actions.resume')}
      name={t('dashboard.actions.resumeSite', { label })}
      unavailable={props.site.resumable ? undefined : t('dashboard.actions.resumeUnavailable')}
    />
  );
}

export function DeleteButton(props: SiteButtonProps) {
  const { t } = useTranslation();
  return (
    <SiteActionButton
      {...props}
      action="delete"
      danger
      label={t('dashboard.actions.delete')}
      name={t('dashboard.actions.deleteSite', { label: siteName(props.site) })}
    />
  );
}
