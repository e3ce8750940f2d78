import type { targetV1 } from '@mimamori/contracts';
import { z } from 'zod';

const locator = z.object({
  selector: z.string().max(10_000).default(''),
  selector_type: z.string().max(20).default('css'),
  frame_selector: z.string().max(10_000).default(''),
  frame_selector_type: z.string().max(20).default(''),
});
const action = z.object({
  type: z.string().max(40),
  locator: locator.optional(),
  value: z.string().max(10_000).default(''),
  skippable: z.boolean().default(false),
});

/**
 * A v2 site's settings as the registration wizard and the edit screen send them. Only types are
 * checked here; the target service checks the values and names the field it refuses.
 */
export const targetSettingsBody = z.object({
  label: z.string().max(10_000).default(''),
  url: z.string().max(10_000).default(''),
  interval_minutes: z.number().int(),
  screenshot: z.boolean().default(false),
  proxy: z.boolean().default(false),
  mail_notify: z.boolean().default(true),
  chat_notify: z.string().max(20).default('none'),
  discord_webhook_url: z.string().max(10_000).default(''),
  user_agent: z
    .object({ kind: z.string().max(20), value: z.string().max(10_000).default('') })
    .default({ kind: 'none', value: '' }),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }).optional(),
  cookies: z.string().max(100_000).default(''),
  clear_cookies: z.boolean().default(false),
  login: z
    .object({
      actions: z.array(action).max(100),
      verify: z.object({ kind: z.string().max(20), cookie_name: z.string().max(1_000).default('') }),
    })
    .optional(),
  actions: z.array(action).max(100).default([]),
  areas: z
    .array(
      z.object({
        area_id: z.string().max(200),
        label: z.string().max(10_000).default(''),
        content: z.string().max(1_000_000).default(''),
        locator: locator.optional(),
        options: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .max(100)
    .default([]),
  rules: z.record(z.string(), z.unknown()).optional(),
  fetch_mode: z.string().max(20).default('browser'),
  paused: z.boolean().default(false),
});

export type TargetSettingsBody = z.infer<typeof targetSettingsBody>;

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
    paused: body.paused,
    hasCookies: false,
    hasDiscordWebhook: false,
  };
}

function actionMessage(value: z.infer<typeof action>): targetV1.Action {
  return {
    type: value.type,
    locator: value.locator ? locatorMessage(value.locator) : undefined,
    value: value.value,
    skippable: value.skippable,
    hasValue: false,
  };
}

function locatorMessage(value: z.infer<typeof locator>): targetV1.Locator {
  return {
    selector: value.selector,
    selectorType: value.selector_type,
    frameSelector: value.frame_selector,
    frameSelectorType: value.frame_selector_type,
  };
}

/** The stored settings for the edit screen; secrets are never sent back, only whether they are set. */
export function settingsJson(settings: targetV1.TargetSettings | undefined) {
  if (!settings) return null;
  const locatorJson = (value: targetV1.Locator | undefined) =>
    value
      ? {
          selector: value.selector,
          selector_type: value.selectorType,
          frame_selector: value.frameSelector,
          frame_selector_type: value.frameSelectorType,
        }
      : undefined;
  const actionJson = (value: targetV1.Action) => ({
    type: value.type,
    locator: locatorJson(value.locator),
    value: value.value,
    skippable: value.skippable,
    has_value: value.hasValue,
  });
  return {
    label: settings.label,
    url: settings.url,
    interval_minutes: settings.intervalMinutes,
    screenshot: settings.screenshot,
    proxy: settings.useProxy,
    mail_notify: settings.mailNotify,
    chat_notify: settings.chatNotify,
    has_discord_webhook: settings.hasDiscordWebhook,
    user_agent: { kind: settings.userAgentKind, value: settings.userAgentValue },
    viewport:
      settings.viewportWidth || settings.viewportHeight
        ? { width: settings.viewportWidth, height: settings.viewportHeight }
        : null,
    has_cookies: settings.hasCookies,
    login: settings.login
      ? {
          actions: settings.login.actions.map(actionJson),
          verify: { kind: settings.login.verifyKind, cookie_name: settings.login.verifyCookieName },
        }
      : null,
    actions: settings.actions.map(actionJson),
    areas: settings.areas.map((area) => ({
      area_id: area.areaId,
      label: area.label,
      content: area.content,
      locator: locatorJson(area.locator),
      options: JSON.parse(area.optionsJson || '{}') as unknown,
    })),
    rules: settings.rulesJson ? (JSON.parse(settings.rulesJson) as unknown) : null,
    fetch_mode: settings.fetchMode,
    paused: settings.paused,
  };
}

/** A site-list row with its keys (docs/product.md#targets). */
export function siteRowJson(row: targetV1.SiteRow | undefined) {
  if (!row) return null;
  return {
    id: row.id,
    ver: row.ver,
    no: row.no,
    label: row.label,
    url: row.url,
    valid: row.valid,
    new: row.new,
    proxy: row.proxy,
    updated: row.updated?.toISOString() ?? null,
    checked: row.checked?.toISOString() ?? null,
    resumable: row.resumable,
    interval_minutes: row.intervalMinutes,
  };
}
