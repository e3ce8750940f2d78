import type { Db } from '@mimamori/db';
import {
  type CheckOutcome,
  changesBeyondDueTime,
  countCheck,
  type FailureKind,
  type FailureStreak,
  NO_STREAK,
} from '@mimamori/watch-engine';
import { columnList } from './column-list.ts';
import { NOTIFIER_SCHEMA } from './migrations.ts';

const S = NOTIFIER_SCHEMA;

/** A row of `error_streaks` as the queries here read it. */
export interface StreakRow {
  last_due_at: Date;
  started_at: Date | null;
  failed_since: Date | null;
  kind_counts: Partial<Record<FailureKind, number>>;
  last_kind: FailureKind | null;
  last_area_id: string;
  alerted_run: Date | null;
  recovered_run: Date | null;
  recovered_at: Date | null;
}

/** The columns of `StreakRow`, for `columnList`. */
export const STREAK_COLUMNS = [
  'last_due_at',
  'started_at',
  'failed_since',
  'kind_counts',
  'last_kind',
  'last_area_id',
  'alerted_run',
  'recovered_run',
  'recovered_at',
] as const;

/** The streak a row holds; none without a row. */
export function streakOf(row: StreakRow | undefined): FailureStreak {
  if (!row) return NO_STREAK;
  return {
    lastDueAt: row.last_due_at,
    startedAt: row.started_at,
    failedSince: row.failed_since,
    counts: row.kind_counts,
    lastKind: row.last_kind,
    lastAreaId: row.last_area_id,
    alertedRun: row.alerted_run,
    recoveredRun: row.recovered_run,
    recoveredAt: row.recovered_at,
  };
}

/**
 * Counts a check's outcome (domain/failure-streak.ts) under the site's row lock and answers the
 * streak as it stands, whether this check changed it or was counted before. `read` is the streak
 * as the caller already read it without a lock (check-standing-store.ts), which a success that
 * changes nothing needs no more than.
 */
export async function countOutcome(
  db: Db,
  targetId: string,
  check: CheckOutcome,
  read?: FailureStreak,
): Promise<FailureStreak> {
  const columns = columnList(STREAK_COLUMNS);
  // A success while the site works changes nothing (ADR 0032): told without taking the row's
  // lock, which would itself write the row's header.
  if (!check.failure) {
    const held =
      read ??
      streakOf(
        (
          await db.query<StreakRow>(`SELECT ${columns} FROM ${S}.error_streaks WHERE target_id = $1`, [
            targetId,
          ])
        ).rows[0],
      );
    const counted = countCheck(held, check);
    if (!counted) return held;
    if (!changesBeyondDueTime(held, counted)) return counted;
  }
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<StreakRow>(
      `SELECT ${columns} FROM ${S}.error_streaks WHERE target_id = $1 FOR UPDATE`,
      [targetId],
    );
    const held = streakOf(rows[0]);
    const counted = countCheck(held, check);
    if (!counted) return held;
    // A success while the site works is not written (ADR 0032): only the due time would move.
    if (!changesBeyondDueTime(held, counted)) return counted;
    await tx.query(
      `INSERT INTO ${S}.error_streaks
         (target_id, last_due_at, started_at, errors, kind_counts, last_kind, last_area_id, alerted_run,
          recovered_run, failed_since, recovered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (target_id) DO UPDATE SET
         last_due_at = EXCLUDED.last_due_at, started_at = EXCLUDED.started_at, errors = EXCLUDED.errors,
         kind_counts = EXCLUDED.kind_counts, last_kind = EXCLUDED.last_kind,
         last_area_id = EXCLUDED.last_area_id, alerted_run = EXCLUDED.alerted_run,
         recovered_run = EXCLUDED.recovered_run, failed_since = EXCLUDED.failed_since,
         recovered_at = EXCLUDED.recovered_at`,
      [
        targetId,
        counted.lastDueAt,
        counted.startedAt,
        Object.values(counted.counts).reduce((sum, count) => sum + (count ?? 0), 0),
        JSON.stringify(counted.counts),
        counted.lastKind,
        counted.lastAreaId,
        counted.alertedRun,
        counted.recoveredRun,
        counted.failedSince,
        counted.recoveredAt,
      ],
    );
    return counted;
  });
}

/** The alert of the run that started at `run` went out; a run since started is left alone. */
export async function markAlerted(db: Db, targetId: string, run: Date): Promise<void> {
  await db.query(`UPDATE ${S}.error_streaks SET alerted_run = $2 WHERE target_id = $1 AND started_at = $2`, [
    targetId,
    run,
  ]);
}

/** The "working again" message of the run that started at `run` went out. */
export async function markRecoveryTold(db: Db, targetId: string, run: Date): Promise<void> {
  await db.query(
    `UPDATE ${S}.error_streaks SET recovered_run = NULL WHERE target_id = $1 AND recovered_run = $2`,
    [targetId, run],
  );
}
