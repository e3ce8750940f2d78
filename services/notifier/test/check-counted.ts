import type { Db } from '@mimamori/db';

/**
 * Whether the notifier has taken a check result a test published, so the next may follow: a
 * failure, or a success that ends a run, moves the site's error streak to its due time; an
 * update moves the silence spell to its time. A success while the site works writes nothing
 * (ADR 0032): it is taken once the site has its silence row and no run going, which its order
 * among other such successes does not change.
 */
export async function checkCounted(
  db: Db,
  check: { targetId: string; outcome: string; dueAt: Date; completedAt: Date },
): Promise<boolean> {
  const { rows } = await db.query<{
    last_due_at: Date | null;
    working: boolean | null;
    last_change_at: Date | null;
  }>(
    `SELECT (SELECT last_due_at FROM notifier.error_streaks WHERE target_id = $1) AS last_due_at,
            (SELECT started_at IS NULL AND recovered_run IS NULL FROM notifier.error_streaks
              WHERE target_id = $1) AS working,
            (SELECT last_change_at FROM notifier.silences WHERE target_id = $1) AS last_change_at`,
    [check.targetId],
  );
  const row = rows[0];
  if (!row) return false;
  if (row.last_due_at && row.last_due_at.getTime() >= check.dueAt.getTime()) return true;
  if (check.outcome === 'error' || row.working === false || !row.last_change_at) return false;
  return check.outcome !== 'update' || row.last_change_at.getTime() >= check.completedAt.getTime();
}
