import type { Db } from '@mimamori/db';
import { NO_QUIET_HOURS, type QuietHours } from '@mimamori/quiet-hours';
import { siteQuietMode } from '../domain/site-quiet-hours.ts';
import type { NoticeLookup, TargetNotice } from '../domain/target-notice.ts';
import { columnList } from './column-list.ts';
import { NOTIFIER_SCHEMA } from './migrations.ts';

const S = NOTIFIER_SCHEMA;

/** Keeps the notice of the newest revision; an older or repeated event changes nothing. */
export async function saveNotice(db: Db, notice: TargetNotice, revision: number): Promise<void> {
  await db.query(
    `INSERT INTO ${S}.target_notices
       (target_id, user_id, revision, label, url, mail_notify, chat_notify, sealed_discord_webhook,
        version, area_labels, failure_alert_after, silence_alert_days, quiet_mode, quiet_hours)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (target_id) DO UPDATE SET
       user_id = EXCLUDED.user_id, revision = EXCLUDED.revision, label = EXCLUDED.label,
       url = EXCLUDED.url, mail_notify = EXCLUDED.mail_notify, chat_notify = EXCLUDED.chat_notify,
       sealed_discord_webhook = EXCLUDED.sealed_discord_webhook, version = EXCLUDED.version,
       area_labels = EXCLUDED.area_labels, failure_alert_after = EXCLUDED.failure_alert_after,
       silence_alert_days = EXCLUDED.silence_alert_days, quiet_mode = EXCLUDED.quiet_mode,
       quiet_hours = EXCLUDED.quiet_hours
     WHERE target_notices.revision < EXCLUDED.revision AND NOT target_notices.deleted`,
    [
      notice.targetId,
      notice.userId,
      revision,
      notice.label,
      notice.url,
      notice.mailNotify,
      notice.chatNotify,
      notice.sealedDiscordWebhook,
      notice.version,
      JSON.stringify(notice.areaLabels),
      notice.failureAlertAfter,
      notice.silenceAlertDays,
      notice.quietMode,
      JSON.stringify(notice.quietHours),
    ],
  );
}

/** Forgets what the site's notice said (its webhook included) and that it can fail. */
export async function removeNotice(
  db: Db,
  targetId: string,
  userId: string,
  revision: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO ${S}.target_notices (target_id, user_id, revision, deleted) VALUES ($1, $2, $3, true)
       ON CONFLICT (target_id) DO UPDATE SET deleted = true, label = '', url = '', mail_notify = false,
         chat_notify = 'none', sealed_discord_webhook = '', area_labels = '{}',
         revision = GREATEST(target_notices.revision, EXCLUDED.revision)`,
      [targetId, userId, revision],
    );
    await tx.query(`DELETE FROM ${S}.error_streaks WHERE target_id = $1`, [targetId]);
    await tx.query(`DELETE FROM ${S}.silences WHERE target_id = $1`, [targetId]);
    // A deleted site's held updates are told to nobody.
    await tx.query(`DELETE FROM ${S}.held_updates WHERE target_id = $1`, [targetId]);
  });
}

/** A row of `target_notices` as the queries here read it. */
export interface NoticeRow {
  user_id: string;
  deleted: boolean;
  label: string;
  url: string;
  mail_notify: boolean;
  chat_notify: string;
  sealed_discord_webhook: string;
  version: number;
  area_labels: Record<string, string>;
  failure_alert_after: number;
  silence_alert_days: number;
  quiet_mode: string;
  quiet_hours: QuietHours | null;
}

/** The columns of `NoticeRow`, for `columnList`. */
export const NOTICE_COLUMNS = [
  'user_id',
  'deleted',
  'label',
  'url',
  'mail_notify',
  'chat_notify',
  'sealed_discord_webhook',
  'version',
  'area_labels',
  'failure_alert_after',
  'silence_alert_days',
  'quiet_mode',
  'quiet_hours',
] as const;

export async function loadNotice(db: Db, targetId: string): Promise<NoticeLookup> {
  const { rows } = await db.query<NoticeRow>(
    `SELECT ${columnList(NOTICE_COLUMNS)} FROM ${S}.target_notices WHERE target_id = $1`,
    [targetId],
  );
  return noticeOf(targetId, rows[0]);
}

/** The notice a row holds: 'deleted' for a site that is gone, null for no row. */
export function noticeOf(targetId: string, row: NoticeRow | undefined): NoticeLookup {
  if (!row) return null;
  if (row.deleted) return 'deleted';
  return {
    targetId,
    userId: row.user_id,
    label: row.label,
    url: row.url,
    mailNotify: row.mail_notify,
    chatNotify: row.chat_notify,
    sealedDiscordWebhook: row.sealed_discord_webhook,
    version: row.version,
    areaLabels: row.area_labels,
    failureAlertAfter: row.failure_alert_after,
    silenceAlertDays: row.silence_alert_days,
    quietMode: siteQuietMode(row.quiet_mode),
    quietHours: row.quiet_hours ?? NO_QUIET_HOURS,
  };
}
