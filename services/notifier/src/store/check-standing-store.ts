import type { Db } from '@mimamori/db';
import type { FailureStreak, SilenceWatch } from '@mimamori/watch-engine';
import type { NoticeLookup } from '../domain/target-notice.ts';
import { columnList } from './column-list.ts';
import { STREAK_COLUMNS, type StreakRow, streakOf } from './error-streak-store.ts';
import { NOTIFIER_SCHEMA } from './migrations.ts';
import { NOTICE_COLUMNS, type NoticeRow, noticeOf } from './notice-store.ts';
import { type SilenceRow, silenceOf } from './silence-store.ts';

const S = NOTIFIER_SCHEMA;

/** What the notifier holds of a site when one of its checks completes. */
export interface CheckStanding {
  streak: FailureStreak;
  notice: NoticeLookup;
  /** The quiet spell; null before the site's first counted check. */
  silence: SilenceWatch | null;
}

/**
 * The site's failure streak, notice and quiet spell in one query, without locks: all that a check
 * which changes nothing needs (most checks), where three queries were one each (ADR 0037). A
 * check that changes something counts itself under the row's lock as before.
 */
export async function readCheckStanding(db: Db, targetId: string): Promise<CheckStanding> {
  const { rows } = await db.query<
    NoticeRow & StreakRow & SilenceRow & { has_notice: boolean; has_streak: boolean; has_silence: boolean }
  >(
    `SELECT ${columnList(NOTICE_COLUMNS, 'n')}, ${columnList(STREAK_COLUMNS, 'e')}, s.last_change_at, s.told_for,
            n.target_id IS NOT NULL AS has_notice, e.target_id IS NOT NULL AS has_streak,
            s.target_id IS NOT NULL AS has_silence
       FROM (SELECT $1::text AS target_id) site
       LEFT JOIN ${S}.target_notices n ON n.target_id = site.target_id
       LEFT JOIN ${S}.error_streaks e ON e.target_id = site.target_id
       LEFT JOIN ${S}.silences s ON s.target_id = site.target_id`,
    [targetId],
  );
  const row = rows[0];
  return {
    streak: streakOf(row?.has_streak ? row : undefined),
    notice: noticeOf(targetId, row?.has_notice ? row : undefined),
    silence: silenceOf(row?.has_silence ? row : undefined),
  };
}
