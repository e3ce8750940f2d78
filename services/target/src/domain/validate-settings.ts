import { NO_QUIET_HOURS, type QuietHours, quietHoursProblem } from '@mimamori/quiet-hours';
import {
  ALERT_AFTER_RANGE,
  DEFAULT_ALERT_AFTER,
  SILENCE_DAYS_RANGE,
  validateAreaOptions,
  validateRuleGroups,
} from '@mimamori/watch-engine';
import {
  CONTENT_KINDS,
  type ContentKind,
  type DocumentSelectorType,
  documentAreaProblem,
} from '@mimamori/watch-engine/document-areas';
import { USER_AGENT_KINDS } from '@mimamori/watch-engine/user-agent-kinds';
import { type SelectorType, selectorParses } from './selector-syntax.ts';
import type { ActionInput, AreaInput, LocatorInput, SettingsInput } from './settings-input.ts';
import { invalid } from './target-problem.ts';
import type {
  ActionRecord,
  ActionType,
  AreaRecord,
  ChatNotify,
  FetchMode,
  LocatorRecord,
  LoginRecord,
  TargetRecord,
  TargetSettingsRecord,
} from './target-record.ts';
import { QUIET_MODES } from './target-record.ts';
import { LABEL_MAX_LENGTH, targetUrl } from './target-url.ts';

/** Seals a user's secret for one field of one site (the context binds it there). */
export type Seal = (plaintext: string, context: string) => string;

const ACTION_TYPES: readonly ActionType[] = ['click', 'enter_text', 'modifier_key', 'goto_url'];
const CHAT_NOTIFY: readonly ChatNotify[] = ['none', 'account', 'site'];
const FETCH_MODES: readonly FetchMode[] = ['http', 'browser'];
const AREA_ID = /^[A-Za-z0-9_-]{1,64}$/;
const DISCORD_WEBHOOK =
  /^https:\/\/(?:discord\.com|discordapp\.com)\/api\/webhooks\/\d{1,30}\/[A-Za-z0-9_-]{1,200}$/;

export const SETTINGS_LIMITS = {
  /** A week: longer than the longest plan interval anyone asks for. */
  intervalMinutes: 10_080,
  areas: 20,
  actions: 50,
  selectorLength: 2_000,
  valueLength: 2_000,
  contentLength: 100_000,
  cookiesLength: 8_000,
  userAgentLength: 500,
} as const;

export interface ValidationContext {
  targetId: string;
  /** The stored site on update: blank secrets keep its sealed ones. */
  previous: TargetRecord | null;
  seal: Seal;
  /**
   * Whether the crawlers have a proxy pool (CRAWLER_PROXIES). Without one a site's proxy
   * option would do nothing, so it is refused rather than stored.
   */
  proxyPool: boolean;
}

/**
 * Checks every field of a v2 site and returns what to store, secrets sealed for this site.
 * Refuses the first problem found with a code naming the field (docs/product.md#targets: at least one
 * area, interval of 1 minute or more; selectors that parse; Python-syntax regexes the watch
 * engine can run). Empty rule groups are deleted.
 */
export function validateSettings(input: SettingsInput, context: ValidationContext): TargetSettingsRecord {
  const { targetId, previous, seal } = context;
  const label = input.label.trim();
  if (label.length > LABEL_MAX_LENGTH) throw invalid('label_too_long', 'label');
  if (input.url.trim() === '') throw invalid('url_required', 'url');
  const url = targetUrl(input.url);
  if (!url) throw invalid('url_invalid', 'url');
  if (!Number.isInteger(input.intervalMinutes) || input.intervalMinutes < 1)
    throw invalid('interval_too_short', 'interval_minutes');
  if (input.intervalMinutes > SETTINGS_LIMITS.intervalMinutes)
    throw invalid('interval_too_long', 'interval_minutes');
  if (input.useProxy && !context.proxyPool) throw invalid('proxy_unavailable', 'proxy');

  const chatNotify = oneOf(input.chatNotify || 'none', CHAT_NOTIFY, 'chat_notify_invalid', 'chat_notify');
  let sealedDiscordWebhook = previous?.sealedDiscordWebhook ?? '';
  if (input.discordWebhookUrl !== '') {
    if (!DISCORD_WEBHOOK.test(input.discordWebhookUrl.trim()))
      throw invalid('discord_webhook_invalid', 'discord_webhook_url');
    sealedDiscordWebhook = seal(input.discordWebhookUrl.trim(), `target:${targetId}:discord_webhook`);
  }
  // "site" names the site's own channels: its Discord webhook and its own chat links (kept by the
  // account service, added on the site's page once it exists), so neither is required here
  // (docs/product.md#chat-links).
  if (chatNotify !== 'site') sealedDiscordWebhook = '';

  const userAgentKind = oneOf(
    input.userAgentKind || 'none',
    USER_AGENT_KINDS,
    'user_agent_invalid',
    'user_agent',
  );
  const userAgentValue = userAgentKind === 'free' ? input.userAgentValue.trim() : '';
  if (userAgentKind === 'free' && userAgentValue === '')
    throw invalid('user_agent_required', 'user_agent.value');
  if (userAgentValue.length > SETTINGS_LIMITS.userAgentLength)
    throw invalid('user_agent_too_long', 'user_agent.value');

  const { viewportWidth, viewportHeight } = input;
  const noViewport = viewportWidth === 0 && viewportHeight === 0;
  if (!noViewport && !(inRange(viewportWidth, 240, 3_840) && inRange(viewportHeight, 240, 4_000)))
    throw invalid('viewport_invalid', 'viewport');

  if (input.cookies.length > SETTINGS_LIMITS.cookiesLength) throw invalid('cookies_too_long', 'cookies');
  let sealedCookies = input.clearCookies ? '' : (previous?.sealedCookies ?? '');
  if (input.cookies.trim() !== '') sealedCookies = seal(input.cookies.trim(), `target:${targetId}:cookies`);

  const login = input.login ? loginRecord(input.login, context) : null;
  if (input.actions.length > SETTINGS_LIMITS.actions) throw invalid('too_many_actions', 'actions');
  const actions = input.actions.map((action, index) =>
    actionRecord(action, `actions[${index}]`, previous?.actions[index] ?? null, (text) =>
      seal(text, `target:${targetId}:actions:${index}`),
    ),
  );

  const contentKind = oneOf(
    input.contentKind || 'page',
    CONTENT_KINDS,
    'content_kind_invalid',
    'content_kind',
  );
  const areas = areaRecords(input.areas, contentKind);
  const rules = ruleRecords(input.rulesJson, areas);
  const fetchMode = oneOf(input.fetchMode || 'browser', FETCH_MODES, 'fetch_mode_invalid', 'fetch_mode');
  // A PDF, JSON or XML document is read over plain HTTP: no browser, sign-in, actions or pictures.
  if (contentKind !== 'page' && fetchMode !== 'http') throw invalid('content_kind_needs_http', 'fetch_mode');
  if (contentKind !== 'page' && input.screenshot) throw invalid('content_kind_needs_http', 'screenshot');
  if (contentKind !== 'page' && (login || actions.length > 0))
    throw invalid('content_kind_needs_http', login ? 'login' : 'actions');
  // Only the browser can replay a login or actions and take screenshots.
  if (fetchMode === 'http' && (login || actions.length > 0 || input.screenshot))
    throw invalid('fetch_mode_needs_browser', 'fetch_mode');
  const failureAlertAfter = input.failureAlertAfter || DEFAULT_ALERT_AFTER;
  if (!inRange(failureAlertAfter, ALERT_AFTER_RANGE.min, ALERT_AFTER_RANGE.max))
    throw invalid('failure_alert_after_invalid', 'failure_alert_after');
  const silenceAlertDays = input.silenceAlertDays;
  if (silenceAlertDays !== 0 && !inRange(silenceAlertDays, SILENCE_DAYS_RANGE.min, SILENCE_DAYS_RANGE.max))
    throw invalid('silence_alert_days_invalid', 'silence_alert_days');
  const quietMode = oneOf(input.quietMode || 'account', QUIET_MODES, 'quiet_mode_invalid', 'quiet_mode');
  // Only 'own' keeps hours of the site's own; the others keep none, so a later 'own' starts empty.
  const quietHours = quietMode === 'own' ? ownQuietHours(input.quietHours) : NO_QUIET_HOURS;

  return {
    label,
    url,
    intervalMinutes: input.intervalMinutes,
    screenshot: input.screenshot,
    useProxy: input.useProxy,
    mailNotify: input.mailNotify,
    chatNotify,
    sealedDiscordWebhook,
    userAgentKind,
    userAgentValue,
    viewportWidth: noViewport ? 0 : viewportWidth,
    viewportHeight: noViewport ? 0 : viewportHeight,
    sealedCookies,
    login,
    actions,
    areas,
    rules,
    fetchMode,
    contentKind,
    failureAlertAfter,
    silenceAlertDays,
    // Only the browser renders; an HTTP site keeps none.
    alwaysRender: fetchMode === 'browser' && input.alwaysRender === true,
    quietMode,
    quietHours,
  };
}

/** The site's own quiet hours as entered, weekdays in order; refused as the account's are. */
function ownQuietHours(input: QuietHours | null): QuietHours {
  const quiet: QuietHours = {
    from: input?.from ?? '',
    until: input?.until ?? '',
    allDay: [...(input?.allDay ?? [])].sort((a, b) => a - b),
    holidays: input?.holidays ?? false,
    alertsBreakThrough: input?.alertsBreakThrough ?? true,
  };
  const problem = quietHoursProblem(quiet);
  if (problem) throw invalid(problem, 'quiet_hours');
  return quiet;
}

function loginRecord(
  input: NonNullable<SettingsInput['login']>,
  { targetId, previous, seal }: ValidationContext,
): LoginRecord {
  const verifyKind = oneOf(
    input.verifyKind,
    ['cookie', 'replay'] as const,
    'login_verify_invalid',
    'login.verify.kind',
  );
  const verifyCookieName = verifyKind === 'cookie' ? input.verifyCookieName.trim() : '';
  if (verifyKind === 'cookie' && verifyCookieName === '')
    throw invalid('login_cookie_name_required', 'login.verify.cookie_name');
  if (input.actions.length === 0) throw invalid('login_actions_required', 'login.actions');
  if (input.actions.length > SETTINGS_LIMITS.actions) throw invalid('too_many_actions', 'login.actions');
  const actions = input.actions.map((action, index) =>
    actionRecord(action, `login.actions[${index}]`, previous?.login?.actions[index] ?? null, (text) =>
      seal(text, `target:${targetId}:login:${index}`),
    ),
  );
  return { actions, verifyKind, verifyCookieName };
}

function actionRecord(
  input: ActionInput,
  field: string,
  stored: ActionRecord | null,
  sealText: (text: string) => string,
): ActionRecord {
  const type = oneOf(input.type, ACTION_TYPES, 'action_type_invalid', `${field}.type`);
  const needsElement = type === 'click' || type === 'enter_text';
  const locator = needsElement ? locatorRecord(input.locator, `${field}.locator`) : null;
  if (input.value.length > SETTINGS_LIMITS.valueLength)
    throw invalid('action_value_too_long', `${field}.value`);
  let value = '';
  let sealedValue = '';
  if (type === 'enter_text') {
    // A blank text on update keeps the stored one of the same action (the API never shows it).
    const keeps = stored?.type === 'enter_text' && stored.locator?.selector === locator?.selector;
    if (input.value !== '') sealedValue = sealText(input.value);
    else if (keeps && stored) sealedValue = stored.sealedValue;
    else throw invalid('action_value_required', `${field}.value`);
  } else if (type === 'goto_url') {
    const url = targetUrl(input.value);
    if (!url) throw invalid('url_invalid', `${field}.value`);
    value = url;
  } else if (type === 'modifier_key') {
    value = input.value.trim();
    if (value === '') throw invalid('action_value_required', `${field}.value`);
  }
  return { type, locator, value, sealedValue, skippable: input.skippable };
}

function locatorRecord(input: LocatorInput | null, field: string): LocatorRecord {
  if (!input || input.selector.trim() === '') throw invalid('selector_required', `${field}.selector`);
  const selector = input.selector.trim();
  const selectorType = selectorTypeOf(input.selectorType || 'css', `${field}.selector_type`);
  if (selector.length > SETTINGS_LIMITS.selectorLength || !selectorParses(selector, selectorType))
    throw invalid('selector_invalid', `${field}.selector`, selectorType);
  const frameSelector = input.frameSelector.trim();
  if (frameSelector === '') return { selector, selectorType, frameSelector: '', frameSelectorType: '' };
  const frameSelectorType = selectorTypeOf(input.frameSelectorType || 'css', `${field}.frame_selector_type`);
  if (
    frameSelector.length > SETTINGS_LIMITS.selectorLength ||
    !selectorParses(frameSelector, frameSelectorType)
  )
    throw invalid('selector_invalid', `${field}.frame_selector`, frameSelectorType);
  return { selector, selectorType, frameSelector, frameSelectorType };
}

/**
 * A document's area: pages or text of a PDF, a JSONPath, an XPath. One that does not parse is
 * refused naming the area's field and, as reason, what is wrong (page_range_invalid,
 * jsonpath_invalid, jsonpath_script, xpath_invalid, text_required).
 */
function documentLocatorRecord(
  input: LocatorInput | null,
  kind: Exclude<ContentKind, 'page'>,
  field: string,
): LocatorRecord {
  if (!input || input.selector.trim() === '') throw invalid('selector_required', `${field}.selector`);
  const selector = input.selector.trim();
  if (selector.length > SETTINGS_LIMITS.selectorLength)
    throw invalid('selector_invalid', `${field}.selector`, input.selectorType);
  const problem = documentAreaProblem(kind, input.selectorType, selector);
  if (problem === 'selector_type_invalid') throw invalid('selector_type_invalid', `${field}.selector_type`);
  if (problem) throw invalid('selector_invalid', `${field}.selector`, problem);
  const selectorType = input.selectorType as DocumentSelectorType;
  return { selector, selectorType, frameSelector: '', frameSelectorType: '' };
}

function selectorTypeOf(value: string, field: string): SelectorType {
  return oneOf(value, ['css', 'xpath'] as const, 'selector_type_invalid', field);
}

function areaRecords(inputs: AreaInput[], kind: ContentKind): AreaRecord[] {
  if (inputs.length === 0) throw invalid('areas_required', 'areas');
  if (inputs.length > SETTINGS_LIMITS.areas) throw invalid('too_many_areas', 'areas');
  const seen = new Set<string>();
  return inputs.map((area, index) => {
    const field = `areas[${index}]`;
    if (!AREA_ID.test(area.areaId)) throw invalid('area_id_invalid', `${field}.area_id`);
    if (seen.has(area.areaId)) throw invalid('area_id_duplicate', `${field}.area_id`);
    seen.add(area.areaId);
    const label = area.label.trim();
    if (label.length > LABEL_MAX_LENGTH) throw invalid('label_too_long', `${field}.label`);
    if (area.content.length > SETTINGS_LIMITS.contentLength)
      throw invalid('area_content_too_long', `${field}.content`);
    const locator =
      kind === 'page'
        ? locatorRecord(area.locator, `${field}.locator`)
        : documentLocatorRecord(area.locator, kind, `${field}.locator`);
    const checked = validateAreaOptions(
      parseJson(area.optionsJson || '{}', `${field}.options`, 'invalid_area_options'),
    );
    if (!checked.ok) {
      const [problem] = checked.problems;
      throw invalid(
        'invalid_area_options',
        joinPath(`${field}.options`, problem?.path ?? ''),
        problem?.code ?? '',
      );
    }
    return { areaId: area.areaId, label, content: area.content, locator, options: { ...checked.value } };
  });
}

function ruleRecords(rulesJson: string, areas: AreaRecord[]): TargetSettingsRecord['rules'] {
  if (rulesJson.trim() === '') return null;
  const checked = validateRuleGroups(
    parseJson(rulesJson, 'rules', 'invalid_rules'),
    areas.map((area) => area.areaId),
  );
  if (!checked.ok) {
    const [problem] = checked.problems;
    throw invalid('invalid_rules', joinPath('rules', problem?.path ?? ''), problem?.code ?? '');
  }
  const groups = checked.value.groups.filter((group) => group.conditions.length > 0);
  return groups.length === 0 ? null : { combine: checked.value.combine, groups };
}

function parseJson(text: string, field: string, code: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(code, field, 'invalid_json');
  }
}

function joinPath(base: string, path: string): string {
  if (path === '') return base;
  return path.startsWith('[') ? `${base}${path}` : `${base}.${path}`;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], code: string, field: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw invalid(code, field);
  return value as T;
}

function inRange(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}
