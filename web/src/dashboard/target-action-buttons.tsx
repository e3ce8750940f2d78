import { useTranslation } from 'react-i18next';
import type { TargetAction, TargetRow } from '../api/targets.ts';
import { monitoringStopped } from '../billing/subscription-state.ts';
import { useSubscriptionState } from '../billing/use-subscription-state.ts';
import { useCanChange } from '../workspaces/use-role.ts';

export type RequestTargetAction = (action: TargetAction, site: TargetRow) => void;

/** What names a site to a screen reader when its buttons have only a verb on them. */
export function targetName(site: TargetRow): string {
  return site.label || site.url;
}

type TargetButtonProps = { site: TargetRow; busy: boolean; onAction: RequestTargetAction };

/**
 * A site's small action button: a verb on it, the verb with the site's name for screen readers;
 * while another action runs it stays focusable but says it is unavailable (aria-disabled). A
 * button that cannot be used says why in words beside it, not only in a tooltip.
 */
function TargetActionButton({
  action,
  site,
  busy,
  onAction,
  label,
  name,
  danger = false,
  unavailable,
}: TargetButtonProps & {
  action: TargetAction;
  label: string;
  name: string;
  danger?: boolean;
  unavailable?: string | undefined;
}) {
  const reasonId = `${action}-unavailable-${site.ver}-${site.id}`;
  return (
    <span className="target-action">
      <button
        type="button"
        className={danger ? 'button small danger' : 'button small'}
        aria-label={name}
        aria-disabled={busy || undefined}
        aria-describedby={unavailable === undefined ? undefined : reasonId}
        disabled={unavailable !== undefined}
        onClick={() => onAction(action, site)}
      >
        {label}
      </button>
      {unavailable !== undefined && (
        <span id={reasonId} className="target-action-reason">
          {unavailable}
        </span>
      )}
    </span>
  );
}

/**
 * Pause a monitoring site, or resume a paused one when the plan has a free slot (docs/product.md#quotas)
 * and the account is not on hold. Why a site cannot resume is written under the button: the hold
 * when the account is held, else the missing slot.
 */
export function PauseButton(props: TargetButtonProps) {
  const { t } = useTranslation();
  const stopped = monitoringStopped(useSubscriptionState());
  const label = targetName(props.site);
  // A viewer changes nothing (docs/product.md#workspaces): no button at all.
  const canEdit = useCanChange('editor');
  if (!canEdit) return null;
  if (props.site.valid) {
    return (
      <TargetActionButton
        {...props}
        action="pause"
        label={t('dashboard.actions.pause')}
        name={t('dashboard.actions.pauseSite', { label })}
      />
    );
  }
  const unavailable = props.site.resumable
    ? undefined
    : stopped
      ? t('dashboard.actions.resumeOnHold')
      : t('dashboard.actions.resumeUnavailable');
  return (
    <TargetActionButton
      {...props}
      action="resume"
      label={t('dashboard.actions.resume')}
      name={t('dashboard.actions.resumeSite', { label })}
      unavailable={unavailable}
    />
  );
}

export function DeleteButton(props: TargetButtonProps) {
  const { t } = useTranslation();
  const canEdit = useCanChange('editor');
  if (!canEdit) return null;
  return (
    <TargetActionButton
      {...props}
      action="delete"
      danger
      label={t('dashboard.actions.delete')}
      name={t('dashboard.actions.deleteSite', { label: targetName(props.site) })}
    />
  );
}
