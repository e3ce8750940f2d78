import type { targetV1 } from '@mimamori/contracts';
import { NO_QUOTA } from '@mimamori/plans';
import type { ActionInput, LocatorInput, SettingsInput } from '../domain/settings-input.ts';
import { TargetProblem } from '../domain/target-problem.ts';
import type { Caller } from '../domain/target-quota.ts';
import type { ActionRecord, LocatorRecord, TargetRecord } from '../domain/target-record.ts';
import type { TargetRowView } from '../domain/target-row.ts';

export function callerOf(message: targetV1.Caller | undefined): Caller {
  if (!message?.userId) throw new TargetProblem('invalid', 'caller_required', 'caller');
  const limits = message.limits;
  return {
    userId: message.userId,
    limits: {
      ...NO_QUOTA,
      _60min: limits?.min60 ?? 0,
      _10min: limits?.min10 ?? 0,
      _1min: limits?.min1 ?? 0,
      random_ip: limits?.randomIp ?? 0,
      ss: limits?.ss ?? 0,
      line_notify: limits?.lineNotify ?? 0,
    },
    held: message.held,
    reader: { lang: message.lang, timeZone: message.timeZone },
    ...(message.historyUpdates > 0 && message.historyDays > 0
      ? { history: { updates: message.historyUpdates, checkDays: message.historyDays } }
      : {}),
  };
}

export function settingsInput(message: targetV1.TargetSettings | undefined): SettingsInput {
  if (!message) throw new TargetProblem('invalid', 'settings_required', 'settings');
  return {
    label: message.label,
    url: message.url,
    intervalMinutes: message.intervalMinutes,
    screenshot: message.screenshot,
    useProxy: message.useProxy,
    mailNotify: message.mailNotify,
    chatNotify: message.chatNotify,
    discordWebhookUrl: message.discordWebhookUrl,
    userAgentKind: message.userAgentKind,
    userAgentValue: message.userAgentValue,
    viewportWidth: message.viewportWidth,
    viewportHeight: message.viewportHeight,
    cookies: message.cookies,
    clearCookies: message.clearCookies,
    login: message.login
      ? {
          actions: message.login.actions.map(actionInput),
          verifyKind: message.login.verifyKind,
          verifyCookieName: message.login.verifyCookieName,
        }
      : null,
    actions: message.actions.map(actionInput),
    areas: message.areas.map((area) => ({
      areaId: area.areaId,
      label: area.label,
      content: area.content,
      locator: area.locator ? locatorInput(area.locator) : null,
      optionsJson: area.optionsJson,
    })),
    rulesJson: message.rulesJson,
    fetchMode: message.fetchMode,
    contentKind: message.contentKind,
    paused: message.paused,
    failureAlertAfter: message.failureAlertAfter,
    silenceAlertDays: message.silenceAlertDays,
    alwaysRender: message.alwaysRender,
    quietMode: message.quietMode,
    quietHours: message.quietHours ?? null,
  };
}

function actionInput(message: targetV1.Action): ActionInput {
  return {
    type: message.type,
    locator: message.locator ? locatorInput(message.locator) : null,
    value: message.value,
    skippable: message.skippable,
  };
}

function locatorInput(message: targetV1.Locator): LocatorInput {
  return { ...message };
}

/** The stored settings as the edit screen reads them: secrets never leave, only whether they are set. */
export function settingsMessage(site: TargetRecord): targetV1.TargetSettings {
  return {
    label: site.label,
    url: site.url,
    intervalMinutes: site.intervalMinutes,
    screenshot: site.screenshot,
    useProxy: site.useProxy,
    mailNotify: site.mailNotify,
    chatNotify: site.chatNotify,
    discordWebhookUrl: '',
    userAgentKind: site.userAgentKind,
    userAgentValue: site.userAgentValue,
    viewportWidth: site.viewportWidth,
    viewportHeight: site.viewportHeight,
    cookies: '',
    clearCookies: false,
    login: site.login
      ? {
          actions: site.login.actions.map(actionMessage),
          verifyKind: site.login.verifyKind,
          verifyCookieName: site.login.verifyCookieName,
        }
      : undefined,
    actions: site.actions.map(actionMessage),
    areas: site.areas.map((area) => ({
      areaId: area.areaId,
      label: area.label,
      content: area.content,
      locator: locatorMessage(area.locator),
      optionsJson: JSON.stringify(area.options),
    })),
    rulesJson: site.rules ? JSON.stringify(site.rules) : '',
    fetchMode: site.fetchMode,
    contentKind: site.contentKind,
    paused: site.paused,
    hasCookies: site.sealedCookies !== '',
    hasDiscordWebhook: site.sealedDiscordWebhook !== '',
    failureAlertAfter: site.failureAlertAfter,
    silenceAlertDays: site.silenceAlertDays,
    alwaysRender: site.alwaysRender,
    quietMode: site.quietMode,
    quietHours: { ...site.quietHours, allDay: [...site.quietHours.allDay] },
  };
}

function actionMessage(action: ActionRecord): targetV1.Action {
  return {
    type: action.type,
    locator: action.locator ? locatorMessage(action.locator) : undefined,
    value: action.value,
    skippable: action.skippable,
    hasValue: action.sealedValue !== '',
  };
}

function locatorMessage(locator: LocatorRecord): targetV1.Locator {
  return { ...locator };
}

export function rowMessage(row: TargetRowView): targetV1.TargetRow {
  return {
    id: row.id,
    ver: row.ver,
    no: row.no,
    label: row.label,
    url: row.url,
    valid: row.valid,
    new: row.new,
    proxy: row.proxy,
    updated: row.updated ?? undefined,
    checked: row.checked ?? undefined,
    resumable: row.resumable,
    pausedForHold: row.pausedForHold,
    intervalMinutes: row.intervalMinutes,
    failingSince: row.failing?.since,
    failingKind: row.failing?.kind ?? '',
  };
}
