import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TargetAction, TargetRow } from '../api/targets.ts';
import { monitoringStopped } from '../billing/subscription-state.ts';
import { useSubscriptionState } from '../billing/use-subscription-state.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useNarrowWindow } from '../hooks/use-narrow-window.ts';
import { useRefreshTargets, useTargetAction, useTargetList } from '../hooks/use-targets.ts';
import { routePaths } from '../route-paths.ts';
import { AlertDialog } from '../shell/alert-dialog.tsx';
import { LoadFailure } from '../shell/load-failure.tsx';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { useCanChange } from '../workspaces/use-role.ts';
import { ImportDialog } from './import-dialog.tsx';
import { type ListPreferences, loadPreferences, savePreferences } from './list-preferences.ts';
import { targetName } from './target-action-buttons.tsx';
import { TargetCards } from './target-cards.tsx';
import {
  REGISTRATION_ORDER,
  sortByColumn,
  type TargetSort,
  UPDATE_ORDER,
  visibleTargets,
} from './target-order.ts';
import { TargetTable } from './target-table.tsx';
import { useTargetTime } from './use-target-time.ts';

type Outcome = { tone: 'success' | 'error'; text: string };

const isUpdateOrder = (sort: TargetSort) => sort.key === 'updated' && sort.descending;

/**
 * The site list (docs/product.md#target-list): search, 'show paused too', sort, refresh, and pause, resume
 * and delete with its confirmation and messages. One action runs at a time; a click
 * while one runs is ignored.
 */
export function TargetListSection() {
  const { t } = useTranslation();
  const narrow = useNarrowWindow();
  const time = useTargetTime();
  const targetList = useTargetList();
  const action = useTargetAction();
  const refresh = useRefreshTargets();
  const [preferences, setPreferences] = useState<ListPreferences>(loadPreferences);
  const [search, setSearch] = useState('');
  const [showUrls, setShowUrls] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<TargetRow | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  // A ref, not the mutation's state: a second click can arrive before React re-renders.
  const running = useRef(false);
  const messageArea = useRef<HTMLDivElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);

  useEffect(() => savePreferences(preferences), [preferences]);
  useEffect(() => {
    // The acted-on button may be gone (deleted, or pause turned into resume): focus the outcome.
    if (focusRequest > 0) messageArea.current?.querySelector<HTMLElement>('[data-form-message]')?.focus();
  }, [focusRequest]);

  const messages: Record<TargetAction, { done: string; failed: string }> = {
    pause: { done: t('dashboard.actions.paused'), failed: t('dashboard.actions.pauseFailed') },
    resume: { done: t('dashboard.actions.resumed'), failed: t('dashboard.actions.resumeFailed') },
    delete: { done: t('dashboard.actions.deleted'), failed: t('dashboard.actions.deleteFailed') },
  };

  const run = (kind: TargetAction, site: TargetRow) => {
    if (running.current) return;
    running.current = true;
    setOutcome(null);
    action.mutate(
      { action: kind, site },
      {
        onSuccess: () => setOutcome({ tone: 'success', text: messages[kind].done }),
        onError: () => setOutcome({ tone: 'error', text: messages[kind].failed }),
        onSettled: () => {
          running.current = false;
          setFocusRequest((count) => count + 1);
        },
      },
    );
  };
  const requestAction = (kind: TargetAction, site: TargetRow) => {
    if (running.current) return;
    if (kind === 'delete') setConfirmDelete(site);
    else run(kind, site);
  };

  const order = narrow
    ? isUpdateOrder(preferences.order)
      ? UPDATE_ORDER
      : REGISTRATION_ORDER
    : preferences.order;
  const sites = targetList.data?.targets ?? [];
  const shown = visibleTargets(sites, { search, showPaused: preferences.showAll }, order);
  const busy = action.isPending;
  // A site added while monitoring is stopped is saved paused: said before it is added.
  const stopped = monitoringStopped(useSubscriptionState());
  // A viewer adds no site (docs/product.md#workspaces): the buttons are not offered.
  const canEdit = useCanChange('editor');

  return (
    <section className="dashboard-section site-list" aria-labelledby="site-list-title">
      <div className="section-head">
        <h2 id="site-list-title" className="section-title">
          {t('dashboard.sites.title')}
        </h2>
        {canEdit && (
          <div className="button-row">
            <button type="button" className="button" onClick={() => setImportOpen(true)}>
              {t('dashboard.import.open')}
            </button>
            <Link
              to={narrow ? routePaths.targetRegistrationMobile : routePaths.targetRegistrationColumns}
              className={stopped ? 'button' : 'button primary'}
              data-tour="register-site"
              aria-describedby={stopped ? 'register-stopped' : undefined}
            >
              {t('dashboard.sites.register')}
            </Link>
          </div>
        )}
      </div>
      {stopped && (
        <p id="register-stopped" className="field-hint stopped-hint" data-testid="register-stopped">
          {t('dashboard.sites.registerStopped')}
        </p>
      )}
      {importOpen && <ImportDialog onClose={() => setImportOpen(false)} />}

      <div className="site-toolbar">
        <div className="field site-search">
          <label htmlFor="site-search" className="field-label">
            {t('dashboard.sites.search')}
          </label>
          <input
            id="site-search"
            type="search"
            className="input"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        {narrow && (
          <div className="field site-sort">
            <label htmlFor="site-sort" className="field-label">
              {t('dashboard.sites.sort')}
            </label>
            <select
              id="site-sort"
              className="input"
              value={isUpdateOrder(order) ? 'update' : 'registration'}
              onChange={(event) =>
                setPreferences((current) => ({
                  ...current,
                  order: event.target.value === 'update' ? UPDATE_ORDER : REGISTRATION_ORDER,
                }))
              }
            >
              <option value="registration">{t('dashboard.sites.orderRegistration')}</option>
              <option value="update">{t('dashboard.sites.orderUpdate')}</option>
            </select>
          </div>
        )}
        <div className="site-toggles">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={preferences.showAll}
              onChange={(event) =>
                setPreferences((current) => ({ ...current, showAll: event.target.checked }))
              }
            />
            {t('dashboard.sites.showPaused')}
          </label>
          {!narrow && (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={showUrls}
                onChange={(event) => setShowUrls(event.target.checked)}
              />
              {t('dashboard.sites.showUrls')}
            </label>
          )}
        </div>
      </div>

      <div className="site-status-line">
        <p className="muted" data-testid="site-list-fetched-at">
          {targetList.data ? t('dashboard.sites.fetchedAt', { at: time(targetList.data.at) }) : '\u00a0'}
        </p>
        {targetList.data && (
          <p className="muted" data-testid="site-list-count">
            {t('dashboard.sites.count', { count: sites.length, shown: shown.length, total: sites.length })}
          </p>
        )}
        <button
          type="button"
          className="button small"
          disabled={targetList.isFetching}
          onClick={() => void refresh()}
        >
          {targetList.isFetching ? t('dashboard.sites.refreshing') : t('dashboard.sites.refresh')}
        </button>
      </div>

      <div ref={messageArea} className="site-action-message">
        {outcome && <FormMessage tone={outcome.tone} message={outcome.text} />}
      </div>

      {targetList.isPending && <LoadingIndicator />}
      {targetList.data && sites.length === 0 && (
        <p className="site-list-empty">{t('dashboard.sites.empty')}</p>
      )}
      {targetList.data && sites.length > 0 && shown.length === 0 && (
        <p className="site-list-empty">{t('dashboard.sites.noMatch')}</p>
      )}
      {shown.length > 0 &&
        (narrow ? (
          <TargetCards sites={shown} busy={busy} onAction={requestAction} />
        ) : (
          <TargetTable
            sites={shown}
            sort={order}
            onSort={(key) =>
              setPreferences((current) => ({ ...current, order: sortByColumn(current.order, key) }))
            }
            showUrls={showUrls}
            busy={busy}
            onAction={requestAction}
          />
        ))}

      {targetList.isError && (
        <LoadFailure message={t('dashboard.sites.loadFailed')} notice={!targetList.data} />
      )}
      {confirmDelete && (
        <AlertDialog
          message={t('dashboard.actions.confirmDelete', { label: targetName(confirmDelete) })}
          onClose={() => setConfirmDelete(null)}
          actions={
            <>
              <button type="button" className="button" onClick={() => setConfirmDelete(null)}>
                {t('dashboard.actions.cancel')}
              </button>
              <button
                type="button"
                className="button danger-solid"
                onClick={() => {
                  const site = confirmDelete;
                  setConfirmDelete(null);
                  run('delete', site);
                }}
              >
                {t('dashboard.actions.delete')}
              </button>
            </>
          }
        />
      )}
    </section>
  );
}
