import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TargetVersion } from '../api/history.ts';
import type { TargetAction, TargetRow } from '../api/targets.ts';
import type { SubscriptionState } from '../billing/subscription-state.ts';
import { useSubscriptionState } from '../billing/use-subscription-state.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useTargetAction } from '../hooks/use-history.ts';
import { useNarrowWindow } from '../hooks/use-narrow-window.ts';
import { routePaths } from '../route-paths.ts';
import { AlertDialog } from '../shell/alert-dialog.tsx';
import { useCanChange } from '../workspaces/use-role.ts';

const DONE = {
  pause: 'siteDetail.paused_done',
  resume: 'siteDetail.resumed_done',
  delete: 'siteDetail.deleted_done',
} as const;
const FAILED = {
  pause: 'siteDetail.pauseFailed',
  resume: 'siteDetail.resumeFailed',
  delete: 'siteDetail.deleteFailed',
} as const;

/**
 * Pause, resume (only when the plan has a free slot) and delete (confirmed first), with their
 * messages; a click while an action runs is ignored. A v2 site also links to its settings in the
 * registration wizard, in the layout that fits the window.
 */
export function TargetActions({ version, site }: { version: TargetVersion; site: TargetRow }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const narrow = useNarrowWindow();
  const action = useTargetAction(version, site.id);
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState(false);

  const run = (what: TargetAction) => {
    if (action.isPending) return;
    action.mutate(what, { onSuccess: () => setDeleted(what === 'delete') });
  };
  const wizard = narrow ? routePaths.targetRegistrationMobile : routePaths.targetRegistrationColumns;
  const settingsQuery = new URLSearchParams({ id: site.id, step: 'notify' });
  const redoQuery = new URLSearchParams({ id: site.id });
  const busy = action.isPending;
  const subscription = useSubscriptionState();
  const unavailable = site.valid || site.resumable ? null : resumeBlock(subscription);
  // A viewer changes nothing (docs/product.md#workspaces): the site's buttons are not offered.
  const canEdit = useCanChange('editor');
  if (!canEdit) return null;

  return (
    <div className="site-actions">
      {action.isSuccess && !deleted && action.variables && (
        <FormMessage tone="success" message={t(DONE[action.variables])} />
      )}
      {action.isError && action.variables && (
        <FormMessage tone="error" message={t(FAILED[action.variables])} />
      )}
      <div className="button-row">
        {site.valid ? (
          <button type="button" className="button" aria-disabled={busy} onClick={() => run('pause')}>
            {busy && action.variables === 'pause' ? t('siteDetail.working') : t('siteDetail.pause')}
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            disabled={!site.resumable}
            aria-disabled={busy || !site.resumable}
            aria-describedby={site.resumable ? undefined : 'resume-unavailable'}
            onClick={() => run('resume')}
          >
            {busy && action.variables === 'resume' ? t('siteDetail.working') : t('siteDetail.resume')}
          </button>
        )}
        <button
          type="button"
          className="button danger"
          aria-disabled={busy}
          onClick={() => !busy && setConfirming(true)}
        >
          {busy && action.variables === 'delete' ? t('siteDetail.working') : t('siteDetail.delete')}
        </button>
        {version === 2 && (
          <>
            <Link className="button" to={`${wizard}?${settingsQuery}`}>
              {t('siteDetail.editSettings')}
            </Link>
            <Link className="button" to={`${wizard}?${redoQuery}`}>
              {t('siteDetail.redoRegistration')}
            </Link>
          </>
        )}
      </div>
      {unavailable && (
        <p id="resume-unavailable" className="field-hint resume-unavailable">
          {t(unavailable.reason)}{' '}
          {unavailable.action && <Link to={unavailable.action.to}>{t(unavailable.action.label)}</Link>}
        </p>
      )}
      {!site.valid && site.resumable && site.paused_for_hold && (
        <p className="field-hint">{t('siteDetail.pausedByHold')}</p>
      )}
      {confirming && (
        <AlertDialog
          message={t('siteDetail.confirmDelete')}
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="button" onClick={() => setConfirming(false)}>
                {t('siteDetail.cancel')}
              </button>
              <button
                type="button"
                className="button danger-solid"
                onClick={() => {
                  setConfirming(false);
                  run('delete');
                }}
              >
                {t('siteDetail.delete')}
              </button>
            </>
          }
        />
      )}
      {deleted && (
        <AlertDialog
          message={t('siteDetail.deleted_done')}
          onClose={() => navigate(routePaths.dashboard)}
          actions={
            <button type="button" className="button primary" onClick={() => navigate(routePaths.dashboard)}>
              {t('siteDetail.backToDashboard')}
            </button>
          }
        />
      )}
    </div>
  );
}

/**
 * Why a paused site cannot resume, and where that is put right: the account's hold (or a trial that
 * ended without a card, or the end of the subscription) stops every site; otherwise no slot is free.
 */
function resumeBlock(state: SubscriptionState | null): {
  reason:
    | 'siteDetail.resumeOnHold'
    | 'siteDetail.resumeAfterTrial'
    | 'siteDetail.resumeEnded'
    | 'siteDetail.resumeUnavailable';
  action: { to: string; label: 'siteDetail.liftHold' | 'siteDetail.registerCard' } | null;
} {
  switch (state?.kind) {
    case 'onHold':
      return {
        reason: 'siteDetail.resumeOnHold',
        action: { to: routePaths.account, label: 'siteDetail.liftHold' },
      };
    case 'trialEnded':
      return {
        reason: 'siteDetail.resumeAfterTrial',
        action: { to: routePaths.newCard, label: 'siteDetail.registerCard' },
      };
    case 'ended':
      return { reason: 'siteDetail.resumeEnded', action: null };
    default:
      return { reason: 'siteDetail.resumeUnavailable', action: null };
  }
}
