import type { Db } from '@mimamori/db';
import { NOTIFIER_SCHEMA } from './migrations.ts';

const S = NOTIFIER_SCHEMA;

export interface ErrorStreak {
  errors: number;
  /** Due time of the streak's first error; names the streak's hint delivery. */
  startedAt: Date | null;
  hinted: boolean;
}

/**
 * Counts a check's outcome in due-time order: an error extends the streak, anything else ends
 * it. A result for a due time already counted (a redelivery, a late older check) changes nothing,
 * so the answer is the streak as it stands either way.
 */
export async function countOutcome(
  db: Db,
  targetId: string,
  dueAt: Date,
  failed: boolean,
): Promise<ErrorStreak> {
  const { rows } = await db.query<{ errors: number; started_at: Date | null; hinted: boolean }>(
    `INSERT INTO ${S}.error_streaks AS s (target_id, errors, started_at, last_due_at)
     VALUES ($1, CASE WHEN $3 THEN 1 ELSE 0 END, CASE WHEN $3 THEN $2::timestamptz END, $2)
     ON CONFLICT (target_id) DO UPDATE SET
       errors = CASE WHEN $3 THEN s.errors + 1 ELSE 0 END,
       started_at = CASE WHEN NOT $3 THEN NULL WHEN s.errors = 0 THEN $2::timestamptz ELSE s.started_at END,
       hinted = CASE WHEN $3 THEN s.hinted ELSE false END,
       last_due_at = $2
     WHERE s.last_due_at < $2
     RETURNING errors, started_at, hinted`,
    [targetId, dueAt, failed],
  );
  const row =
    rows[0] ??
    (
      await db.query<{ errors: number; started_at: Date | null; hinted: boolean }>(
        `SELECT errors, started_at, hinted FROM ${S}.error_streaks WHERE target_id = $1`,
        [targetId],
      )
    ).rows[0];
  return { errors: row?.errors ?? 0, startedAt: row?.started_at ?? null, hinted: row?.hinted ?? false };
}

export async function markHinted(db: Db, targetId: string): Promise<void> {
  await db.query(`UPDATE ${S}.error_streaks SET hinted = true WHERE target_id = $1 AND errors > 0`, [
    targetId,
  ]);
}
