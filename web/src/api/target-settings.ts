import type { AreaOptions } from '@mimamori/watch-engine/area-options';
import type { RuleOperand, RuleOperator } from '@mimamori/watch-engine/notification-rules';
import { apiRequest } from './client.ts';
import type { Locator, PageAction, UserAgent, Viewport } from './preview.ts';

/** An area's options and its rules' words are the watch engine's own (docs/product.md#areas, docs/product.md#rules). */
export type { AreaOptions, RuleOperand, RuleOperator };
export type RuleCondition = { areaId: string; operand: RuleOperand; operator: RuleOperator; value: string };
export type RuleGroup = { combine: 'and' | 'or'; conditions: RuleCondition[] };
export type NotificationRules = { combine: 'and' | 'or'; groups: RuleGroup[] };

export type ChatNotify = 'none' | 'account' | 'site';
export type FetchMode = 'http' | 'browser';

export type AreaSettings = {
  area_id: string;
  label: string;
  /** The area's text at registration ('data at registration' on the site detail). */
  content: string;
  locator: Locator;
  options: AreaOptions;
};

export type LoginSettings = {
  actions: PageAction[];
  verify: { kind: 'cookie' | 'replay'; cookie_name: string };
};

/** A v2 site's settings as POST /api/v2/target/register and /update take them. */
export type TargetSettingsInput = {
  label: string;
  url: string;
  interval_minutes: number;
  screenshot: boolean;
  proxy: boolean;
  mail_notify: boolean;
  chat_notify: ChatNotify;
  /** Blank keeps the stored webhook on update. */
  discord_webhook_url: string;
  user_agent: UserAgent;
  /** The screen size; absent for the user agent's own. */
  viewport?: Viewport;
  /** A Cookie header value for the site; blank keeps the stored one on update. */
  cookies: string;
  /** Removes the stored cookies (update). */
  clear_cookies: boolean;
  login?: LoginSettings;
  actions: PageAction[];
  areas: AreaSettings[];
  rules?: NotificationRules;
  fetch_mode: FetchMode;
  /** Keep (or save) the site paused. */
  paused: boolean;
};

/** The stored settings (GET /api/v2/target): secrets are never sent back, only whether they are set. */
export type StoredTargetSettings = Omit<
  TargetSettingsInput,
  'discord_webhook_url' | 'login' | 'rules' | 'actions' | 'cookies' | 'clear_cookies' | 'viewport'
> & {
  viewport: Viewport | null;
  has_discord_webhook: boolean;
  has_cookies: boolean;
  login: { actions: StoredAction[]; verify: LoginSettings['verify'] } | null;
  actions: StoredAction[];
  rules: NotificationRules | null;
};

export type StoredAction = PageAction & { has_value: boolean };

/** A v1 site has no v2 settings (null). */
export type StoredTarget = { id: string; ver: number; settings: StoredTargetSettings | null };

export type SavedTarget = { target_v2_id: string; paused: boolean; paused_for_quota: boolean };

export function fetchTargetSettings(id: string, signal?: AbortSignal): Promise<StoredTarget> {
  return apiRequest<StoredTarget>(`/api/v2/target?id=${encodeURIComponent(id)}`, signal ? { signal } : {});
}

export function registerTarget(settings: TargetSettingsInput): Promise<SavedTarget> {
  return apiRequest<SavedTarget>('/api/v2/target/register', { method: 'POST', body: settings });
}

export function updateTarget(id: string, settings: TargetSettingsInput): Promise<SavedTarget> {
  return apiRequest<SavedTarget>('/api/v2/target/update', {
    method: 'POST',
    body: { ...settings, target_v2_id: id },
  });
}
