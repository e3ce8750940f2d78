import { NO_QUIET_HOURS, type QuietHours } from '@mimamori/quiet-hours';
import type { TargetRecord } from '../domain/target-record.ts';

export interface TargetTableRow {
  id: string;
  user_id: string;
  version: number;
  no: number;
  label: string;
  url: string;
  interval_minutes: number;
  screenshot: boolean;
  use_proxy: boolean;
  mail_notify: boolean;
  chat_notify: string;
  sealed_discord_webhook: string;
  user_agent_kind: string;
  user_agent_value: string;
  viewport_width: number;
  viewport_height: number;
  sealed_cookies: string;
  login: TargetRecord['login'];
  actions: TargetRecord['actions'];
  areas: TargetRecord['areas'];
  rules: TargetRecord['rules'];
  fetch_mode: string;
  paused: boolean;
  paused_reason: string | null;
  is_new: boolean;
  revision: string | number;
  last_update_at: Date | null;
  last_checked_at: Date | null;
  reader_lang: string;
  reader_time_zone: string;
  failure_alert_after: number;
  silence_alert_days: number;
  always_render: boolean;
  quiet_mode: string;
  quiet_hours: QuietHours | null;
  history_updates: number;
  history_days: number;
  content_kind: string;
  failing_since: Date | null;
  failing_kind: string | null;
}

export function toTargetRecord(row: TargetTableRow): TargetRecord {
  return {
    id: row.id,
    userId: row.user_id,
    version: row.version === 1 ? 1 : 2,
    no: row.no,
    label: row.label,
    url: row.url,
    intervalMinutes: row.interval_minutes,
    screenshot: row.screenshot,
    useProxy: row.use_proxy,
    mailNotify: row.mail_notify,
    chatNotify: row.chat_notify as TargetRecord['chatNotify'],
    sealedDiscordWebhook: row.sealed_discord_webhook,
    userAgentKind: row.user_agent_kind as TargetRecord['userAgentKind'],
    userAgentValue: row.user_agent_value,
    viewportWidth: row.viewport_width,
    viewportHeight: row.viewport_height,
    sealedCookies: row.sealed_cookies,
    login: row.login,
    actions: row.actions,
    areas: row.areas,
    rules: row.rules,
    fetchMode: row.fetch_mode as TargetRecord['fetchMode'],
    contentKind: row.content_kind as TargetRecord['contentKind'],
    paused: row.paused,
    pausedReason: row.paused_reason as TargetRecord['pausedReason'],
    isNew: row.is_new,
    revision: Number(row.revision),
    lastUpdateAt: row.last_update_at ? new Date(row.last_update_at) : null,
    lastCheckedAt: row.last_checked_at ? new Date(row.last_checked_at) : null,
    reader: { lang: row.reader_lang, timeZone: row.reader_time_zone },
    failureAlertAfter: row.failure_alert_after,
    silenceAlertDays: row.silence_alert_days,
    alwaysRender: row.always_render,
    quietMode: row.quiet_mode as TargetRecord['quietMode'],
    quietHours: row.quiet_hours ?? NO_QUIET_HOURS,
    history: { updates: row.history_updates, checkDays: row.history_days },
    failing:
      row.failing_since && row.failing_kind
        ? { since: new Date(row.failing_since), kind: row.failing_kind }
        : null,
  };
}
