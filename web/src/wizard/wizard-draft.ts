import type { AreaLocator } from '@mimamori/http-api';
import { DEFAULT_AREA_OPTIONS } from '@mimamori/watch-engine/area-options';
import type { ContentKind } from '@mimamori/watch-engine/document-areas';
import { SILENCE_DAYS_RANGE } from '@mimamori/watch-engine/silence';
import type { Box, LoginVerify, PageAction, UserAgent, Viewport } from '../api/preview.ts';
import type { QuietHoursJson } from '../api/quiet-hours.ts';
import type {
  AreaOptions,
  ChatNotify,
  FetchMode,
  NotificationRules,
  StoredAction,
  StoredTargetSettings,
  TargetSettingsInput,
} from '../api/target-settings.ts';
import { emptyRules, rulesToSave } from '../rules/rule-groups.ts';

/** The wizard's steps in flow order (docs/product.md#wizard): login and actions are optional. */
export const STEPS = ['url', 'display', 'login', 'actions', 'areas', 'content', 'notify'] as const;
export type StepId = (typeof STEPS)[number];

/** The five numbered steps (docs/product.md#wizard); login and actions are optional extras between them. */
const NUMBERED: readonly StepId[] = ['url', 'display', 'areas', 'content', 'notify'];
export const STEP_COUNT = NUMBERED.length;

/** The step's number as the screens number it (1 to 5), or null for an optional step. */
export function stepNumber(step: StepId): number | null {
  const index = NUMBERED.indexOf(step);
  return index < 0 ? null : index + 1;
}

/** An action as the form edits it; a blank text of a stored action keeps the stored one. */
export type ActionDraft = {
  type: PageAction['type'];
  selector: string;
  selectorType: 'css' | 'xpath';
  frameSelector: string;
  value: string;
  skippable: boolean;
  /** A stored action whose text the server keeps (it never sends it back). */
  hasValue: boolean;
};

export type AreaDraft = {
  areaId: string;
  label: string;
  /** A page's CSS or XPath; a document's pages, text, JSONPath or XPath (docs/product.md#documents-and-data). */
  locator: AreaLocator;
  /** Where it is on the current screenshot; null when it was not found there (a stored area). */
  box: Box | null;
  /** The frame it is in ('' for the top document), so boxes are only compared within one frame. */
  frameKey: string;
  options: AreaOptions;
  /** Excluded words and regexes, one per line, as typed. */
  wordsText: string;
  regexesText: string;
  /** What a person sees in the area (from the preview), saved as the data at registration. */
  content: string;
  /** Whether HTTP mode reads the same text; null until the preview read the area. */
  httpSuffices: boolean | null;
};

export type WizardDraft = {
  url: string;
  userAgent: UserAgent;
  /** The screen size as typed; both blank for the user agent's own. */
  viewportWidth: string;
  viewportHeight: string;
  /** A Cookie header value for the site, as typed (the server never sends a stored one back). */
  cookies: string;
  /** The stored site has cookies; `clearCookies` removes them. */
  hasCookies: boolean;
  clearCookies: boolean;
  loginEnabled: boolean;
  loginActions: ActionDraft[];
  verify: LoginVerify;
  actions: ActionDraft[];
  areas: AreaDraft[];
  label: string;
  /** As typed, so a wrong value can be shown and refused. */
  interval: string;
  screenshot: boolean;
  proxy: boolean;
  mailNotify: boolean;
  chatNotify: ChatNotify;
  discordWebhookUrl: string;
  /** Failed checks of one kind in a row before the failure alert, as typed (docs/product.md#failure-alerts). */
  failureAlertAfter: string;
  /** Days without an update before the silence alert; '' or '0' is off. */
  silenceAlertDays: string;
  /** Browser mode: every check renders the page (docs/product.md#checks). */
  alwaysRender: boolean;
  /** Whose quiet hours the site keeps (docs/product.md#quiet-hours); `quietHours` for 'own'. */
  quietMode: SiteQuietMode;
  quietHours: QuietHoursJson;
  rules: NotificationRules;
  /** The stored site's fetch mode, kept while its areas were not read again. */
  storedFetchMode: FetchMode | null;
  /** What the URL serves: a web page, or a PDF, JSON or XML document (read over plain HTTP). */
  contentKind: ContentKind;
  /** What the user asked the URL to be read as; 'auto' takes what it serves. */
  kindChoice: 'auto' | ContentKind;
  /** A paused site stays paused when its settings are edited; a new one starts monitoring. */
  paused: boolean;
  /**
   * The account's defaults (interval, screenshots) were applied once, or the site has its own: a
   * choice the person made after is never overwritten, even when the step is shown again.
   */
  defaultsApplied: boolean;
  /** The fields with an account default that the person set before the defaults were applied. */
  chosen: DefaultedField[];
};

/** The fields a new site takes from the account's defaults (docs/product.md#wizard). */
export type DefaultedField = 'interval' | 'screenshot' | 'chatNotify';

export type SiteQuietMode = 'account' | 'none' | 'own';

/** Where a site's own quiet hours start when chosen: nights, as most people mean them. */
export const SITE_QUIET_HOURS: QuietHoursJson = {
  from: '22:00',
  until: '07:00',
  all_day: [],
  holidays: false,
  alerts_break_through: true,
};

export const newDraft = (): WizardDraft => ({
  url: '',
  userAgent: { kind: 'none', value: '' },
  viewportWidth: '',
  viewportHeight: '',
  cookies: '',
  hasCookies: false,
  clearCookies: false,
  loginEnabled: false,
  loginActions: [],
  verify: { kind: 'replay', cookie_name: '' },
  actions: [],
  areas: [],
  label: '',
  interval: '60',
  screenshot: false,
  proxy: false,
  mailNotify: true,
  chatNotify: 'none',
  discordWebhookUrl: '',
  failureAlertAfter: '3',
  silenceAlertDays: '',
  alwaysRender: false,
  quietMode: 'account',
  quietHours: SITE_QUIET_HOURS,
  rules: emptyRules(),
  storedFetchMode: null,
  contentKind: 'page',
  kindChoice: 'auto',
  paused: false,
  defaultsApplied: false,
  chosen: [],
});

export const newAction = (): ActionDraft => ({
  type: 'click',
  selector: '',
  selectorType: 'css',
  frameSelector: '',
  value: '',
  skippable: false,
  hasValue: false,
});

/** An id not yet used by the site's areas (the target service accepts [A-Za-z0-9_-]{1,64}). */
export function nextAreaId(areas: readonly AreaDraft[]): string {
  const used = new Set(areas.map((area) => area.areaId));
  let number = areas.length + 1;
  while (used.has(`area-${number}`)) number++;
  return `area-${number}`;
}

/**
 * The label of a new area (docs/product.md#wizard): the name the page suggests, numbered on when an
 * area already has it, so each reads apart in the rules and the mails; the wizard's numbered name
 * when the page suggests none.
 */
export function newAreaLabel(
  suggested: string,
  areas: readonly Pick<AreaDraft, 'label'>[],
  numbered: (number: number) => string,
): string {
  if (suggested === '') return numbered(areas.length + 1);
  const used = new Set(areas.map((area) => area.label));
  if (!used.has(suggested)) return suggested;
  let number = 2;
  while (used.has(`${suggested} ${number}`)) number++;
  return `${suggested} ${number}`;
}

/** docs/product.md#wizard: the interval is a whole number of minutes, 1 or more. */
/** The failure alert's count: a whole number 1–100 (docs/product.md#failure-alerts). */
export function failureAlertAfterProblem(value: string): 'failure_alert_after_invalid' | undefined {
  const count = Number(value.trim());
  return value.trim() !== '' && Number.isInteger(count) && count >= 1 && count <= 100
    ? undefined
    : 'failure_alert_after_invalid';
}

/** The silence alert's days: empty or 0 (off), or a whole number 1–365 (docs/product.md#silence-alerts). */
export function silenceAlertDaysProblem(value: string): 'silence_alert_days_invalid' | undefined {
  const trimmed = value.trim();
  const days = Number(trimmed);
  return trimmed === '' ||
    (Number.isInteger(days) &&
      (days === 0 || (days >= SILENCE_DAYS_RANGE.min && days <= SILENCE_DAYS_RANGE.max)))
    ? undefined
    : 'silence_alert_days_invalid';
}

export function intervalProblem(interval: string): 'interval_too_short' | undefined {
  const minutes = Number(interval.trim());
  return interval.trim() !== '' && Number.isInteger(minutes) && minutes >= 1
    ? undefined
    : 'interval_too_short';
}

/** A list typed one entry per line, as it is sent: lines trimmed, blank ones left out. */
export const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export type ActionProblem = 'selector_required' | 'action_value_required' | 'url_invalid';

/**
 * What the target service would refuse in an action, found before leaving its step: clicks and
 * typing need an element, typing a text (a stored one is kept), a key its name, a URL change a URL.
 */
export function actionProblem(action: ActionDraft): ActionProblem | undefined {
  const needsElement = action.type === 'click' || action.type === 'enter_text';
  if (needsElement && action.selector.trim() === '') return 'selector_required';
  if (action.type === 'enter_text' && action.value === '' && !action.hasValue) return 'action_value_required';
  if (action.type === 'modifier_key' && action.value.trim() === '') return 'action_value_required';
  if (action.type === 'goto_url' && !/^https?:\/\/\S+$/i.test(action.value.trim())) return 'url_invalid';
  return undefined;
}

export function actionFromDraft(action: ActionDraft): PageAction {
  const needsElement = action.type === 'click' || action.type === 'enter_text';
  return {
    type: action.type,
    ...(needsElement
      ? {
          locator: {
            selector: action.selector.trim(),
            selector_type: action.selectorType,
            frame_selector: action.frameSelector.trim(),
            frame_selector_type: action.frameSelector.trim() ? action.selectorType : '',
          },
        }
      : {}),
    value: action.value,
    skippable: action.skippable,
  };
}

export function areaOptions(area: AreaDraft): AreaOptions {
  return { ...area.options, excludeWords: lines(area.wordsText), excludeRegexes: lines(area.regexesText) };
}

/**
 * Browser mode is needed for a login, actions or screenshots, or when an area's text only appears
 * once scripts ran; otherwise the cheaper HTTP mode reads the same text.
 */
export function fetchModeOf(draft: WizardDraft): FetchMode {
  if (draft.contentKind !== 'page') return 'http';
  if ((draft.loginEnabled && draft.loginActions.length > 0) || draft.actions.length > 0 || draft.screenshot)
    return 'browser';
  if (draft.areas.some((area) => area.httpSuffices === null)) return draft.storedFetchMode ?? 'browser';
  return draft.areas.length > 0 && draft.areas.every((area) => area.httpSuffices) ? 'http' : 'browser';
}

/** The screen size to send: none while both fields are blank (the target service checks the range). */
export function viewportOf(
  draft: Pick<WizardDraft, 'viewportWidth' | 'viewportHeight'>,
): Viewport | undefined {
  if (draft.viewportWidth.trim() === '' && draft.viewportHeight.trim() === '') return undefined;
  return { width: Number(draft.viewportWidth.trim()), height: Number(draft.viewportHeight.trim()) };
}

function viewportPart(draft: WizardDraft): { viewport?: Viewport } {
  const viewport = viewportOf(draft);
  return viewport ? { viewport } : {};
}

/** Limits of a screen size, as the preview and the target service accept it. */
export function viewportProblem(
  draft: Pick<WizardDraft, 'viewportWidth' | 'viewportHeight'>,
): 'viewport_invalid' | undefined {
  const viewport = viewportOf(draft);
  if (!viewport) return undefined;
  const { width, height } = viewport;
  const fits = (value: number, max: number) => Number.isInteger(value) && value >= 240 && value <= max;
  return fits(width, 3_840) && fits(height, 4_000) ? undefined : 'viewport_invalid';
}

/**
 * The body of POST /api/v2/target/register (and /update). Its type is inferred, so it keeps the
 * draft's own words (chat_notify, fetch_mode, …) where the request shape takes any string.
 */
export function settingsFromDraft(draft: WizardDraft) {
  const rules = rulesToSave(draft.rules);
  return {
    label: draft.label.trim(),
    url: draft.url.trim(),
    interval_minutes: Number(draft.interval.trim()),
    // A PDF, JSON or XML document has no picture to take (read over plain HTTP, docs/product.md#documents-and-data).
    screenshot: draft.contentKind === 'page' && draft.screenshot,
    proxy: draft.proxy,
    mail_notify: draft.mailNotify,
    chat_notify: draft.chatNotify,
    discord_webhook_url: draft.chatNotify === 'site' ? draft.discordWebhookUrl.trim() : '',
    failure_alert_after: Number(draft.failureAlertAfter.trim()),
    silence_alert_days: Number(draft.silenceAlertDays.trim() || '0'),
    always_render: fetchModeOf(draft) === 'browser' && draft.alwaysRender,
    quiet_mode: draft.quietMode,
    quiet_hours: draft.quietMode === 'own' ? draft.quietHours : null,
    user_agent: {
      kind: draft.userAgent.kind,
      value: draft.userAgent.kind === 'free' ? draft.userAgent.value.trim() : '',
    },
    ...viewportPart(draft),
    cookies: draft.cookies.trim(),
    clear_cookies: draft.clearCookies && draft.cookies.trim() === '',
    ...(draft.loginEnabled && draft.loginActions.length > 0
      ? { login: { actions: draft.loginActions.map(actionFromDraft), verify: draft.verify } }
      : {}),
    actions: draft.actions.map(actionFromDraft),
    areas: draft.areas.map((area) => ({
      area_id: area.areaId,
      label: area.label.trim(),
      content: area.content,
      locator: area.locator,
      options: areaOptions(area),
    })),
    ...(rules ? { rules } : {}),
    fetch_mode: fetchModeOf(draft),
    content_kind: draft.contentKind,
    paused: draft.paused,
  } satisfies TargetSettingsInput;
}

function actionDraft(action: StoredAction): ActionDraft {
  return {
    type: action.type,
    selector: action.locator?.selector ?? '',
    selectorType: action.locator?.selector_type === 'xpath' ? 'xpath' : 'css',
    frameSelector: action.locator?.frame_selector ?? '',
    value: action.value,
    skippable: action.skippable,
    hasValue: action.has_value,
  };
}

/** A stored site as the wizard edits it (edit mode, /sr2c?id=). */
export function draftFromStored(settings: StoredTargetSettings): WizardDraft {
  return {
    url: settings.url,
    userAgent: settings.user_agent,
    viewportWidth: settings.viewport ? String(settings.viewport.width) : '',
    viewportHeight: settings.viewport ? String(settings.viewport.height) : '',
    cookies: '',
    hasCookies: settings.has_cookies,
    clearCookies: false,
    loginEnabled: settings.login !== null,
    loginActions: settings.login?.actions.map(actionDraft) ?? [],
    verify: settings.login?.verify ?? { kind: 'replay', cookie_name: '' },
    actions: settings.actions.map(actionDraft),
    areas: settings.areas.map((area) => ({
      areaId: area.area_id,
      label: area.label,
      locator: area.locator,
      box: null,
      frameKey: area.locator.frame_selector,
      options: { ...DEFAULT_AREA_OPTIONS, ...area.options },
      wordsText: (area.options.excludeWords ?? []).join('\n'),
      regexesText: (area.options.excludeRegexes ?? []).join('\n'),
      content: area.content,
      httpSuffices: null,
    })),
    label: settings.label,
    interval: String(settings.interval_minutes),
    screenshot: settings.screenshot,
    proxy: settings.proxy,
    mailNotify: settings.mail_notify,
    chatNotify: settings.chat_notify,
    discordWebhookUrl: '',
    failureAlertAfter: String(settings.failure_alert_after),
    silenceAlertDays: settings.silence_alert_days > 0 ? String(settings.silence_alert_days) : '',
    alwaysRender: settings.always_render,
    quietMode: settings.quiet_mode,
    quietHours: settings.quiet_mode === 'own' ? settings.quiet_hours : SITE_QUIET_HOURS,
    rules: settings.rules ?? emptyRules(),
    storedFetchMode: settings.fetch_mode,
    contentKind: settings.content_kind,
    kindChoice: settings.content_kind,
    paused: settings.paused,
    defaultsApplied: true,
    chosen: [],
  };
}
