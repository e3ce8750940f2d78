import { slotRoom } from '@mimamori/plans';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.ts';
import type { ChatNotify, SavedTarget, StoredTarget } from '../api/target-settings.ts';
import { fetchTargetSettings } from '../api/target-settings.ts';
import { ChatLinksPanel } from '../chat-links/chat-links-panel.tsx';
import {
  type ConflictField,
  type ConflictStage,
  changedElsewhere,
  EditConflictNotice,
} from '../forms/edit-conflict.tsx';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useAccount } from '../hooks/use-account.ts';
import { useChatLinks } from '../hooks/use-chat-links.ts';
import { useSaveTarget } from '../hooks/use-target-settings.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { queryKeys } from '../query-keys.ts';
import { RuleGroupEditor } from '../rules/rule-group-editor.tsx';
import { rulesHaveProblems } from '../rules/rule-groups.ts';
import { usePatternProblems } from '../rules/use-pattern-problems.ts';
import { accountDefaults, chosenWith, newTargetFits } from './plan-room.ts';
import { SiteQuietHoursField } from './site-quiet-hours-field.tsx';
import { StepButtons } from './step-buttons.tsx';
import {
  draftFromStored,
  failureAlertAfterProblem,
  fetchModeOf,
  intervalProblem,
  settingsFromDraft,
  silenceAlertDaysProblem,
  type WizardDraft,
} from './wizard-draft.ts';
import type { StepProps } from './wizard-step.ts';

/** The plan's intervals (docs/product.md#quotas) and the slot each one takes. */
const INTERVALS: readonly { minutes: number; quota: '_60min' | '_10min' | '_1min' }[] = [
  { minutes: 60, quota: '_60min' },
  { minutes: 10, quota: '_10min' },
  { minutes: 1, quota: '_1min' },
];
const CHAT_NOTIFY: readonly ChatNotify[] = ['none', 'account', 'site'];

/**
 * Step 7: label, interval, channels and notification rules; Register (or Update in edit mode)
 * saves the site. A failure that is a timeout asks to reload and start again (docs/product.md#check-errors).
 */
export function NotifyStep({
  draft,
  change,
  onBack,
  editId,
  onSaved,
  base,
  rebase,
}: Omit<StepProps, 'onNext'> & {
  editId: string | null;
  onSaved: (saved: SavedTarget) => void;
  /** In edit mode, the site as read and the draft made from it. */
  base: { stored: StoredTarget; draft: WizardDraft } | null;
  rebase: (stored: StoredTarget) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const userInfo = useUserInfo();
  const save = useSaveTarget(editId);
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [intervalError, setIntervalError] = useState<string>();
  const [labelError, setLabelError] = useState<string>();
  const [webhookError, setWebhookError] = useState<string>();
  const [proxyError, setProxyError] = useState<string>();
  const [alertAfterError, setAlertAfterError] = useState<string>();
  const [silenceError, setSilenceError] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [checkRules, setCheckRules] = useState(false);
  const patternProblems = usePatternProblems(draft.rules);
  const queryClient = useQueryClient();
  // A save refused because another tab saved first: what changed there, and what was typed here.
  const [conflict, setConflict] = useState<{
    fields: ConflictField[];
    mine: WizardDraft;
    started: WizardDraft;
    stage: ConflictStage;
  }>();
  const [reloading, setReloading] = useState(false);
  const set = <Key extends keyof typeof draft>(key: Key, value: (typeof draft)[Key]) =>
    change((current) => ({ ...current, [key]: value, chosen: chosenWith(current, key) }));
  const quota = userInfo.data;
  const room = quota && slotRoom(quota.num, quota.used_num);
  // A new site takes the account's defaults once user_info is known (docs/product.md#wizard); what
  // the person sets after, and an edited site's own settings, stay.
  // Chat is on when the account has a chat linked for every site: Discord, or a chat link. Either
  // list failing to load leaves chat as it is rather than holding the other defaults back.
  const account = useAccount();
  const chatLinks = useChatLinks();
  const chatLinked =
    account.data?.discord_state === 'complete' ||
    (chatLinks.data?.links ?? []).some((link) => link.target_id === '' && link.status === 'linked');
  const accountKnown = !account.isPending && !chatLinks.isPending;
  useEffect(() => {
    if (draft.defaultsApplied || quota === undefined || !accountKnown) return;
    change((current) => ({ ...current, ...accountDefaults(current, quota, chatLinked) }));
  }, [quota, accountKnown, chatLinked, draft.defaultsApplied, change]);
  // Editing counts the site itself in the usage already, so only a new site is judged here.
  const noRoom =
    editId === null &&
    quota !== undefined &&
    intervalProblem(draft.interval) === undefined &&
    !newTargetFits(quota.num, quota.used_num, {
      intervalMinutes: Number(draft.interval),
      screenshot: draft.contentKind === 'page' && draft.screenshot,
      proxy: draft.proxy,
      chat: draft.chatNotify !== 'none',
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    setLabelError(undefined);
    setWebhookError(undefined);
    setProxyError(undefined);
    const wrongInterval = intervalProblem(draft.interval);
    setIntervalError(wrongInterval ? errorText(wrongInterval) : undefined);
    const wrongAlertAfter = failureAlertAfterProblem(draft.failureAlertAfter);
    setAlertAfterError(wrongAlertAfter ? errorText(wrongAlertAfter) : undefined);
    const wrongSilence = silenceAlertDaysProblem(draft.silenceAlertDays);
    setSilenceError(wrongSilence ? errorText(wrongSilence) : undefined);
    setCheckRules(true);
    if (wrongInterval || wrongAlertAfter || wrongSilence || rulesHaveProblems(draft.rules, patternProblems)) {
      focusResult();
      return;
    }
    const settings = settingsFromDraft(draft);
    save.mutate(
      { settings, revision: base?.stored.revision ?? 0 },
      {
        onSuccess: (saved) => {
          setConflict(undefined);
          onSaved(saved);
        },
        onError: (error) => {
          // Refusals about one field are shown on it; the rest under the form.
          const code = error instanceof ApiError ? error.code : '';
          if (error instanceof ApiError && error.conflict && base?.stored.settings) {
            const fields = changedElsewhere(
              error.conflict.changed,
              base.stored.settings,
              settings,
              comparableSetting,
            );
            setConflict({ fields, mine: draft, started: base.draft, stage: 'open' });
          } else if (code === 'label_too_long') setLabelError(errorText(error));
          else if (code.startsWith('interval_')) setIntervalError(errorText(error));
          else if (code.startsWith('discord_webhook_')) setWebhookError(errorText(error));
          else if (code === 'proxy_unavailable') setProxyError(errorText(error));
          else if (code === 'failure_alert_after_invalid') setAlertAfterError(errorText(error));
          else if (code === 'silence_alert_days_invalid') setSilenceError(errorText(error));
          else if (error instanceof ApiError && (error.status === 0 || error.status >= 502))
            setProblem(t('wizard.problems.saveTimeout'));
          else setProblem(errorText(error));
        },
        onSettled: focusResult,
      },
    );
  };

  // The saved version replaces the form; what was typed stays listed, to be put back on request.
  const reload = async () => {
    if (!editId || !conflict) return;
    setReloading(true);
    try {
      const latest = await queryClient.fetchQuery({
        queryKey: queryKeys.targetSettings(editId),
        queryFn: ({ signal }) => fetchTargetSettings(editId, signal),
        staleTime: 0,
      });
      if (!latest.settings) return;
      rebase(latest);
      change(() => ({
        ...draftFromStored(latest.settings as NonNullable<typeof latest.settings>),
        defaultsApplied: true,
      }));
      setConflict({ ...conflict, stage: 'reloaded' });
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setReloading(false);
    }
  };
  // Only what this screen changed goes back: a field the person never touched keeps the saved value.
  const reapply = () => {
    if (!conflict) return;
    const typed = (Object.keys(conflict.mine) as (keyof WizardDraft)[]).filter(
      (key) => JSON.stringify(conflict.mine[key]) !== JSON.stringify(conflict.started[key]),
    );
    change((current) => ({
      ...current,
      ...Object.fromEntries(typed.map((key) => [key, conflict.mine[key]])),
    }));
    setConflict({ ...conflict, stage: 'reapplied' });
  };

  return (
    <form
      ref={container}
      className="form wizard-form"
      noValidate
      onSubmit={submit}
      data-tour="notification-settings"
    >
      <p className="lead">{t('wizard.notify.lead')}</p>
      {conflict && (
        <EditConflictNotice
          fields={conflict.fields}
          stage={conflict.stage}
          busy={reloading}
          onReload={() => void reload()}
          onReapply={reapply}
        />
      )}
      <TextField
        id="wizard-label"
        label={t('wizard.notify.label')}
        value={draft.label}
        onChange={(label) => set('label', label)}
        hint={t('wizard.notify.labelHint')}
        error={labelError}
      />
      <div className="field">
        <label htmlFor="wizard-interval" className="field-label">
          {t('wizard.notify.interval')}
        </label>
        <input
          id="wizard-interval"
          className="input interval-input"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={draft.interval}
          aria-invalid={intervalError ? true : undefined}
          aria-describedby={intervalError ? 'wizard-interval-error' : 'wizard-interval-hint'}
          onChange={(event) => set('interval', event.target.value)}
        />
        <p className="field-hint" id="wizard-interval-hint">
          {t('wizard.notify.intervalHint')}
        </p>
        {intervalError && (
          <p className="field-error" id="wizard-interval-error">
            {intervalError}
          </p>
        )}
        <ul className="interval-choices" aria-label={t('wizard.notify.intervalChoices')}>
          {INTERVALS.map(({ minutes, quota: key }) => (
            <li key={minutes}>
              <button
                type="button"
                className="button small"
                aria-pressed={draft.interval.trim() === String(minutes)}
                onClick={() => set('interval', String(minutes))}
              >
                {t(`wizard.notify.every.${key}`)}
              </button>
              {room && <span className="muted quota">{t('wizard.notify.room', { count: room[key] })}</span>}
            </li>
          ))}
        </ul>
      </div>
      <fieldset className="choice-group">
        <legend className="field-label">{t('wizard.notify.channels')}</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.mailNotify}
            onChange={(event) => set('mailNotify', event.target.checked)}
          />
          {t('wizard.notify.mail')}
        </label>
        <div className="field">
          <label htmlFor="wizard-chat" className="field-label">
            {t('wizard.notify.chat')}
          </label>
          <select
            id="wizard-chat"
            className="input"
            value={draft.chatNotify}
            onChange={(event) => set('chatNotify', event.target.value as ChatNotify)}
          >
            {CHAT_NOTIFY.map((kind) => (
              <option key={kind} value={kind}>
                {t(`wizard.notify.chatKinds.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        {draft.chatNotify === 'account' && <p className="muted">{t('wizard.notify.accountChats')}</p>}
        {draft.chatNotify === 'site' && (
          <>
            <TextField
              id="wizard-webhook"
              label={t('wizard.notify.webhook')}
              type="url"
              autoComplete="off"
              value={draft.discordWebhookUrl}
              onChange={(url) => set('discordWebhookUrl', url)}
              hint={editId ? t('wizard.notify.webhookKept') : t('wizard.notify.webhookOptional')}
              error={webhookError}
            />
            {/* A site's own chat links belong to a saved site: a new one gets them on its page. */}
            {editId ? (
              <div className="wizard-site-chats">
                <p className="field-label">{t('wizard.notify.siteChats')}</p>
                <ChatLinksPanel targetId={editId} />
              </div>
            ) : (
              <p className="muted">{t('wizard.notify.siteChatsLater')}</p>
            )}
          </>
        )}
        {/* A document or data target is read over HTTP and has no pictures (docs/product.md#documents-and-data). */}
        {draft.contentKind === 'page' && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.screenshot}
              onChange={(event) => set('screenshot', event.target.checked)}
            />
            {t('wizard.notify.screenshot')}
            {quota && (
              <span className="muted quota">
                {t('wizard.notify.quota', { used: quota.used_num.ss, limit: quota.num.ss })}
              </span>
            )}
          </label>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.proxy}
            onChange={(event) => set('proxy', event.target.checked)}
            aria-invalid={proxyError ? true : undefined}
            aria-describedby={proxyError ? 'wizard-proxy-error' : undefined}
          />
          {t('wizard.notify.proxy')}
          {quota && (
            <span className="muted quota">
              {t('wizard.notify.quota', { used: quota.used_num.random_ip, limit: quota.num.random_ip })}
            </span>
          )}
        </label>
        {proxyError && (
          <p className="field-error" id="wizard-proxy-error">
            {proxyError}
          </p>
        )}
        {/* How checks read the page, and the person's say over it (ADR 0031). */}
        {draft.contentKind === 'page' && (
          <div className="field">
            <p className="field-label">{t('wizard.notify.readBy')}</p>
            <p className="muted" data-testid="wizard-read-by">
              {fetchModeOf(draft) === 'browser'
                ? t('wizard.notify.readByBrowser')
                : t('wizard.notify.readByHttp')}
            </p>
            {fetchModeOf(draft) === 'browser' && (
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.alwaysRender}
                  onChange={(event) => set('alwaysRender', event.target.checked)}
                />
                {t('wizard.notify.alwaysRender')}
              </label>
            )}
          </div>
        )}
        <div className="field">
          <label htmlFor="wizard-failure-alert" className="field-label">
            {t('wizard.notify.failureAlertAfter')}
          </label>
          <input
            id="wizard-failure-alert"
            className="input interval-input"
            type="number"
            min={1}
            max={100}
            step={1}
            inputMode="numeric"
            value={draft.failureAlertAfter}
            aria-invalid={alertAfterError ? true : undefined}
            aria-describedby={alertAfterError ? 'wizard-failure-alert-error' : 'wizard-failure-alert-hint'}
            onChange={(event) => set('failureAlertAfter', event.target.value)}
          />
          <p className="field-hint" id="wizard-failure-alert-hint">
            {t('wizard.notify.failureAlertAfterHint')}
          </p>
          {alertAfterError && (
            <p className="field-error" id="wizard-failure-alert-error">
              {alertAfterError}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="wizard-silence-alert" className="field-label">
            {t('wizard.notify.silenceAlertDays')}
          </label>
          <input
            id="wizard-silence-alert"
            className="input interval-input"
            type="number"
            min={0}
            max={365}
            step={1}
            inputMode="numeric"
            placeholder="0"
            value={draft.silenceAlertDays}
            aria-invalid={silenceError ? true : undefined}
            aria-describedby={silenceError ? 'wizard-silence-alert-error' : 'wizard-silence-alert-hint'}
            onChange={(event) => set('silenceAlertDays', event.target.value)}
          />
          <p className="field-hint" id="wizard-silence-alert-hint">
            {t('wizard.notify.silenceAlertDaysHint')}
          </p>
          {silenceError && (
            <p className="field-error" id="wizard-silence-alert-error">
              {silenceError}
            </p>
          )}
        </div>
        <SiteQuietHoursField
          mode={draft.quietMode}
          hours={draft.quietHours}
          onMode={(mode) => set('quietMode', mode)}
          onHours={(hours) => set('quietHours', hours)}
        />
      </fieldset>
      <RuleGroupEditor
        idPrefix="wizard-rules"
        rules={draft.rules}
        areas={draft.areas.map((area) => ({ areaId: area.areaId, label: area.label }))}
        showProblems={checkRules}
        patternProblems={patternProblems}
        onChange={(rules) => set('rules', rules)}
      />
      {noRoom && (
        <p className="wizard-warning" role="status">
          {t('wizard.notify.noRoom')}
        </p>
      )}
      {problem && <FormMessage tone="error" message={problem} />}
      <StepButtons
        onBack={onBack}
        submit
        nextDisabled={save.isPending}
        nextLabel={save.isPending ? t('actions.saving') : t(editId ? 'wizard.update' : 'wizard.register')}
      />
    </form>
  );
}

/** A site setting as the conflict answer spells it: an area by its id, name and selector. */
function comparableSetting(field: string, value: unknown): unknown {
  if (field !== 'areas' || !Array.isArray(value)) return value;
  return value.map(
    (area: { area_id: string; label: string; selector?: string; locator?: { selector?: string } }) => ({
      area_id: area.area_id,
      label: area.label,
      selector: area.selector ?? area.locator?.selector ?? '',
    }),
  );
}
