import type { targetV1 } from '@mimamori/contracts';
import {
  type ActionBody,
  type AreaLocator,
  actionType,
  areaSelectorType,
  chatNotify,
  contentKind,
  failureKind,
  fetchMode,
  type ImportOutcome,
  importFormat,
  importProblemCode,
  type Locator,
  type LocatorBody,
  loginVerifyKind,
  type SavedTarget,
  type StoredAction,
  type StoredTargetSettings,
  selectorType,
  siteVersion,
  type TargetRow,
  type TargetSettingsBody,
  userAgentKind,
} from '@mimamori/http-api';

/** The settings as the target service takes them; it checks the values the body's types let through. */
export function settingsMessage(body: TargetSettingsBody): targetV1.TargetSettings {
  return {
    label: body.label,
    url: body.url,
    intervalMinutes: body.interval_minutes,
    screenshot: body.screenshot,
    useProxy: body.proxy,
    mailNotify: body.mail_notify,
    chatNotify: body.chat_notify,
    discordWebhookUrl: body.discord_webhook_url,
    userAgentKind: body.user_agent.kind,
    userAgentValue: body.user_agent.value,
    viewportWidth: body.viewport?.width ?? 0,
    viewportHeight: body.viewport?.height ?? 0,
    cookies: body.cookies,
    clearCookies: body.clear_cookies,
    login: body.login
      ? {
          actions: body.login.actions.map(actionMessage),
          verifyKind: body.login.verify.kind,
          verifyCookieName: body.login.verify.cookie_name,
        }
      : undefined,
    actions: body.actions.map(actionMessage),
    areas: body.areas.map((area) => ({
      areaId: area.area_id,
      label: area.label,
      content: area.content,
      locator: area.locator ? locatorMessage(area.locator) : undefined,
      optionsJson: JSON.stringify(area.options),
    })),
    rulesJson: body.rules ? JSON.stringify(body.rules) : '',
    fetchMode: body.fetch_mode,
    contentKind: body.content_kind,
    paused: body.paused,
    failureAlertAfter: body.failure_alert_after,
    silenceAlertDays: body.silence_alert_days,
    alwaysRender: body.always_render,
    quietMode: body.quiet_mode,
    quietHours: body.quiet_hours
      ? {
          from: body.quiet_hours.from ?? '',
          until: body.quiet_hours.until ?? '',
          allDay: body.quiet_hours.all_day ?? [],
          holidays: body.quiet_hours.holidays ?? false,
          alertsBreakThrough: body.quiet_hours.alerts_break_through ?? true,
        }
      : undefined,
    hasCookies: false,
    hasDiscordWebhook: false,
  };
}

function actionMessage(value: ActionBody): targetV1.Action {
  return {
    type: value.type,
    locator: value.locator ? locatorMessage(value.locator) : undefined,
    value: value.value,
    skippable: value.skippable,
    hasValue: false,
  };
}

function locatorMessage(value: LocatorBody): targetV1.Locator {
  return {
    selector: value.selector,
    selectorType: value.selector_type,
    frameSelector: value.frame_selector,
    frameSelectorType: value.frame_selector_type,
  };
}

// The target service stored only values it accepted, so its words parse as the answer's enums;
// one that does not is a fault of this gateway's shapes, answered 500.
function locatorJson(value: targetV1.Locator | undefined): Locator | undefined {
  if (!value) return undefined;
  return {
    selector: value.selector,
    selector_type: selectorType.parse(value.selectorType),
    frame_selector: value.frameSelector,
    frame_selector_type: value.frameSelectorType ? selectorType.parse(value.frameSelectorType) : '',
  };
}

/** The target service refuses an area without a locator, so every stored area has one. */
function areaLocatorJson(value: targetV1.Locator | undefined): AreaLocator {
  if (!value) throw new Error('the target service sent an area without its locator');
  return {
    selector: value.selector,
    selector_type: areaSelectorType.parse(value.selectorType),
    frame_selector: value.frameSelector,
    frame_selector_type: value.frameSelectorType ? selectorType.parse(value.frameSelectorType) : '',
  };
}

function actionJson(value: targetV1.Action): StoredAction {
  return {
    type: actionType.parse(value.type),
    locator: locatorJson(value.locator),
    value: value.value,
    skippable: value.skippable,
    has_value: value.hasValue,
  };
}

/** The stored settings for the edit screen; secrets are never sent back, only whether they are set. */
export function settingsJson(settings: targetV1.TargetSettings | undefined): StoredTargetSettings | null {
  if (!settings) return null;
  return {
    label: settings.label,
    url: settings.url,
    interval_minutes: settings.intervalMinutes,
    screenshot: settings.screenshot,
    proxy: settings.useProxy,
    mail_notify: settings.mailNotify,
    chat_notify: chatNotify.parse(settings.chatNotify),
    has_discord_webhook: settings.hasDiscordWebhook,
    user_agent: { kind: userAgentKind.parse(settings.userAgentKind), value: settings.userAgentValue },
    viewport:
      settings.viewportWidth || settings.viewportHeight
        ? { width: settings.viewportWidth, height: settings.viewportHeight }
        : null,
    has_cookies: settings.hasCookies,
    login: settings.login
      ? {
          actions: settings.login.actions.map(actionJson),
          verify: {
            kind: loginVerifyKind.parse(settings.login.verifyKind),
            cookie_name: settings.login.verifyCookieName,
          },
        }
      : null,
    actions: settings.actions.map(actionJson),
    areas: settings.areas.map((area) => ({
      area_id: area.areaId,
      label: area.label,
      content: area.content,
      locator: areaLocatorJson(area.locator),
      options: JSON.parse(area.optionsJson || '{}') as unknown,
    })),
    rules: settings.rulesJson ? (JSON.parse(settings.rulesJson) as unknown) : null,
    fetch_mode: fetchMode.parse(settings.fetchMode),
    content_kind: contentKind.parse(settings.contentKind || 'page'),
    paused: settings.paused,
    failure_alert_after: settings.failureAlertAfter,
    silence_alert_days: settings.silenceAlertDays,
    always_render: settings.alwaysRender,
    quiet_mode:
      settings.quietMode === 'none' || settings.quietMode === 'own' ? settings.quietMode : 'account',
    quiet_hours: {
      from: settings.quietHours?.from ?? '',
      until: settings.quietHours?.until ?? '',
      all_day: settings.quietHours?.allDay ?? [],
      holidays: settings.quietHours?.holidays ?? false,
      alerts_break_through: settings.quietHours?.alertsBreakThrough ?? true,
    },
  };
}

/** A target-list row with its JSON keys (docs/product.md#target-list). */
export function targetRowJson(row: targetV1.TargetRow): TargetRow;
export function targetRowJson(row: targetV1.TargetRow | undefined): TargetRow | null;
export function targetRowJson(row: targetV1.TargetRow | undefined): TargetRow | null {
  if (!row) return null;
  return {
    id: row.id,
    ver: siteVersion.parse(row.ver),
    no: row.no,
    label: row.label,
    url: row.url,
    valid: row.valid,
    new: row.new,
    proxy: row.proxy,
    updated: row.updated?.toISOString() ?? null,
    checked: row.checked?.toISOString() ?? null,
    resumable: row.resumable,
    paused_for_hold: row.pausedForHold,
    interval_minutes: row.intervalMinutes,
    failing:
      row.failingSince && row.failingKind
        ? { since: row.failingSince.toISOString(), kind: failureKind.parse(row.failingKind) }
        : null,
  };
}

export function savedJson(saved: targetV1.SavedTarget | undefined): SavedTarget {
  return {
    target_v2_id: saved?.targetId ?? '',
    paused: saved?.paused ?? false,
    paused_for_quota: saved?.pausedForQuota ?? false,
    target: targetRowJson(saved?.row),
    revision: saved?.revision ?? 0,
  };
}

export function importOutcomeJson(outcome: targetV1.ImportTargetsResponse): ImportOutcome {
  return {
    format: importFormat.parse(outcome.format),
    imported: outcome.imported.map((row) => targetRowJson(row)),
    problems: outcome.problems.map((problem) => ({
      line: problem.line,
      code: importProblemCode.parse(problem.code),
      text: problem.text,
    })),
  };
}
