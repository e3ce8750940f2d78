import type { Sql } from '@mimamori/db';
import type { AreaUpdate, MatchedRule } from '../domain/judge-check.ts';

export interface CheckResultRow {
  checkId: string;
  targetId: string;
  userId: string;
  dueAt: Date | null;
  completedAt: Date;
  outcome: 'no_change' | 'update' | 'error';
  errorCode: string;
  errorDetail: string;
  updateId: string | null;
}

export interface UpdateRow {
  updateId: string;
  checkId: string;
  targetId: string;
  userId: string;
  notify: boolean;
  matched: MatchedRule[];
  areas: AreaUpdate[];
  beforeScreenshotBlobKey: string;
  afterScreenshotBlobKey: string;
  createdAt: Date;
}

export async function recordCheckResult(tx: Sql, row: CheckResultRow): Promise<void> {
  await tx.query(
    `INSERT INTO diff.check_results (check_id, target_id, user_id, due_at, completed_at, outcome,
       error_code, error_detail, update_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.checkId,
      row.targetId,
      row.userId,
      row.dueAt,
      row.completedAt,
      row.outcome,
      row.errorCode,
      row.errorDetail,
      row.updateId,
    ],
  );
}

export async function recordUpdate(tx: Sql, row: UpdateRow): Promise<void> {
  await tx.query(
    `INSERT INTO diff.updates (update_id, check_id, target_id, user_id, notify, matched, areas,
       before_screenshot_blob_key, after_screenshot_blob_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.updateId,
      row.checkId,
      row.targetId,
      row.userId,
      row.notify,
      JSON.stringify(row.matched),
      JSON.stringify(row.areas),
      row.beforeScreenshotBlobKey,
      row.afterScreenshotBlobKey,
      row.createdAt,
    ],
  );
}

/** The check's result when it is already recorded (a check the crawler reported twice). */
export async function recordedCheckResult(tx: Sql, checkId: string): Promise<CheckResultRow | undefined> {
  const { rows } = await tx.query<{
    check_id: string;
    target_id: string;
    user_id: string;
    due_at: Date | null;
    completed_at: Date;
    outcome: CheckResultRow['outcome'];
    error_code: string;
    error_detail: string;
    update_id: string | null;
  }>('SELECT * FROM diff.check_results WHERE check_id = $1', [checkId]);
  const row = rows[0];
  if (!row) return undefined;
  return {
    checkId: row.check_id,
    targetId: row.target_id,
    userId: row.user_id,
    dueAt: row.due_at,
    completedAt: row.completed_at,
    outcome: row.outcome,
    errorCode: row.error_code,
    errorDetail: row.error_detail,
    updateId: row.update_id,
  };
}

/** Removes everything kept for a deleted site; answers the blob keys it referenced. */
export async function forgetTarget(tx: Sql, targetId: string): Promise<string[]> {
  // Data-modifying CTEs all run, referenced or not.
  const { rows } = await tx.query<{ key: string }>(
    `WITH versions AS (
       DELETE FROM diff.area_versions WHERE target_id = $1
       RETURNING screenshot_blob_key, page_screenshot_blob_key
     ), pairs AS (
       DELETE FROM diff.updates WHERE target_id = $1
       RETURNING before_screenshot_blob_key, after_screenshot_blob_key
     ), results AS (
       DELETE FROM diff.check_results WHERE target_id = $1
     ), limits AS (
       DELETE FROM diff.history_limits WHERE target_id = $1
     ), forgotten AS (
       INSERT INTO diff.forgotten_targets (target_id) VALUES ($1) ON CONFLICT DO NOTHING
     )
     SELECT DISTINCT key FROM (
       SELECT screenshot_blob_key AS key FROM versions
       UNION ALL SELECT page_screenshot_blob_key FROM versions
       UNION ALL SELECT before_screenshot_blob_key FROM pairs
       UNION ALL SELECT after_screenshot_blob_key FROM pairs
     ) keys WHERE key <> ''`,
    [targetId],
  );
  return rows.map((row) => row.key);
}
