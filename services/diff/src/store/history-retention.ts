import type { Sql } from '@mimamori/db';

/** How much of a site's history is kept (docs/product.md#history); 0 and 0 keep everything. */
export interface HistoryLimits {
  keepUpdates: number;
  keepCheckDays: number;
}

/**
 * Keeps the limits the site's newest check carried; none (0) takes the site off the sweep. `kept`
 * is what is kept now (read under the site's lock): the same limits write nothing, not even the
 * row lock an upsert would take (ADR 0037).
 */
export async function saveHistoryLimits(
  tx: Sql,
  site: { targetId: string; userId: string },
  limits: HistoryLimits,
  kept: HistoryLimits | null,
): Promise<void> {
  if (limits.keepUpdates <= 0 || limits.keepCheckDays <= 0) {
    if (kept) await tx.query('DELETE FROM diff.history_limits WHERE target_id = $1', [site.targetId]);
    return;
  }
  if (kept?.keepUpdates === limits.keepUpdates && kept.keepCheckDays === limits.keepCheckDays) return;
  await tx.query(
    `INSERT INTO diff.history_limits (target_id, user_id, keep_updates, keep_check_days)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (target_id) DO UPDATE SET
       keep_updates = EXCLUDED.keep_updates, keep_check_days = EXCLUDED.keep_check_days
     WHERE (history_limits.keep_updates, history_limits.keep_check_days)
           IS DISTINCT FROM (EXCLUDED.keep_updates, EXCLUDED.keep_check_days)`,
    [site.targetId, site.userId, limits.keepUpdates, limits.keepCheckDays],
  );
}

/** The sites the sweep trims, in id order after `afterId`. */
export async function limitedSites(tx: Sql, afterId: string, limit: number): Promise<string[]> {
  const { rows } = await tx.query<{ target_id: string }>(
    'SELECT target_id FROM diff.history_limits WHERE target_id > $1 ORDER BY target_id LIMIT $2',
    [afterId, limit],
  );
  return rows.map((row) => row.target_id);
}

/** What one site's trim removed. */
export interface Trimmed {
  updates: number;
  checks: number;
  /** Blob keys no remaining row refers to: the caller deletes them once the rows are gone. */
  blobKeys: string[];
}

/**
 * Trims one site to its limits: updates beyond the newest `keep_updates` go with their check and
 * their before/after pictures; checks completed more than `keep_check_days` before `now` go,
 * except those of a kept update (its history entry would lose its check). Area versions are not
 * touched: the version-store keeps them bounded, and the next check compares with the newest.
 */
export async function trimSiteHistory(tx: Sql, targetId: string, now: Date): Promise<Trimmed> {
  const { rows } = await tx.query<{ updates: number; checks: number; keys: string[] | null }>(
    `WITH limits AS (
       SELECT keep_updates, keep_check_days FROM diff.history_limits WHERE target_id = $1
     ), kept AS (
       SELECT update_id FROM diff.updates WHERE target_id = $1
        ORDER BY created_at DESC, update_id DESC LIMIT (SELECT keep_updates FROM limits)
     ), gone_updates AS (
       DELETE FROM diff.updates
        WHERE target_id = $1 AND EXISTS (SELECT 1 FROM limits)
          AND update_id NOT IN (SELECT update_id FROM kept)
       RETURNING update_id, before_screenshot_blob_key, after_screenshot_blob_key
     ), gone_checks AS (
       DELETE FROM diff.check_results
        WHERE target_id = $1
          AND (update_id IN (SELECT update_id FROM gone_updates)
               OR (completed_at < $2::timestamptz - make_interval(days => (SELECT keep_check_days FROM limits))
                   AND (update_id IS NULL OR update_id NOT IN (SELECT update_id FROM kept))))
       RETURNING check_id
     )
     SELECT (SELECT count(*)::int FROM gone_updates) AS updates,
            (SELECT count(*)::int FROM gone_checks) AS checks,
            (SELECT array_agg(DISTINCT key) FROM (
               SELECT before_screenshot_blob_key AS key FROM gone_updates
               UNION ALL SELECT after_screenshot_blob_key FROM gone_updates
             ) keys WHERE key <> '') AS keys`,
    [targetId, now],
  );
  const row = rows[0];
  const keys = row?.keys ?? [];
  if (keys.length === 0) return { updates: row?.updates ?? 0, checks: row?.checks ?? 0, blobKeys: [] };
  // A picture some remaining row still names stays (update pictures are their own today).
  const { rows: still } = await tx.query<{ key: string }>(
    `SELECT key FROM (
       SELECT before_screenshot_blob_key AS key FROM diff.updates WHERE target_id = $1
       UNION ALL SELECT after_screenshot_blob_key FROM diff.updates WHERE target_id = $1
       UNION ALL SELECT screenshot_blob_key FROM diff.area_versions WHERE target_id = $1
       UNION ALL SELECT page_screenshot_blob_key FROM diff.area_versions WHERE target_id = $1
     ) keys WHERE key = ANY($2)`,
    [targetId, keys],
  );
  const kept = new Set(still.map((entry) => entry.key));
  return {
    updates: row?.updates ?? 0,
    checks: row?.checks ?? 0,
    blobKeys: keys.filter((key) => !kept.has(key)),
  };
}

/** The bytes of a user's history rows as PostgreSQL stores them, and the blob keys they name. */
export async function userHistoryFootprint(
  tx: Sql,
  userId: string,
): Promise<{ rowBytes: number; blobKeys: string[] }> {
  const { rows } = await tx.query<{ row_bytes: string | null; keys: string[] | null }>(
    `SELECT (SELECT coalesce(sum(pg_column_size(v.*)), 0) FROM diff.area_versions v WHERE v.user_id = $1)
          + (SELECT coalesce(sum(pg_column_size(r.*)), 0) FROM diff.check_results r WHERE r.user_id = $1)
          + (SELECT coalesce(sum(pg_column_size(u.*)), 0) FROM diff.updates u WHERE u.user_id = $1) AS row_bytes,
            (SELECT array_agg(DISTINCT key) FROM (
               SELECT screenshot_blob_key AS key FROM diff.area_versions WHERE user_id = $1
               UNION ALL SELECT page_screenshot_blob_key FROM diff.area_versions WHERE user_id = $1
               UNION ALL SELECT before_screenshot_blob_key FROM diff.updates WHERE user_id = $1
               UNION ALL SELECT after_screenshot_blob_key FROM diff.updates WHERE user_id = $1
             ) keys WHERE key <> '') AS keys`,
    [userId],
  );
  return { rowBytes: Number(rows[0]?.row_bytes ?? 0), blobKeys: rows[0]?.keys ?? [] };
}
