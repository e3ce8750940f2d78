import type { Sql } from '@mimamori/db';
import type { VersionToRecord } from '../domain/judge-check.ts';

/** 'exclude same as past' reads at most this many versions (the engine's limit). */
export const MAX_PAST_VERSIONS = 100;

/** The screenshot keys of each area's newest version, and the page screenshot it came with. */
export async function newestScreenshots(
  tx: Sql,
  targetId: string,
): Promise<{ areas: Map<string, string>; page: string }> {
  const { rows } = await tx.query<{
    area_id: string;
    screenshot_blob_key: string;
    page_screenshot_blob_key: string;
  }>(
    `SELECT DISTINCT ON (area_id) area_id, screenshot_blob_key, page_screenshot_blob_key
       FROM diff.area_versions WHERE target_id = $1 ORDER BY area_id, id DESC`,
    [targetId],
  );
  const page = rows.map((row) => row.page_screenshot_blob_key).find((key) => key !== '') ?? '';
  return { areas: new Map(rows.map((row) => [row.area_id, row.screenshot_blob_key])), page };
}

export interface VersionContext {
  targetId: string;
  userId: string;
  checkId: string;
  updateId: string | null;
  pageScreenshotBlobKey: string;
  recordedAt: Date;
}

export async function recordVersions(
  tx: Sql,
  context: VersionContext,
  versions: readonly VersionToRecord[],
): Promise<void> {
  for (const version of versions) {
    await tx.query(
      `INSERT INTO diff.area_versions (target_id, user_id, area_id, check_id, update_id, html, text,
         normalised_text, content_hash, screenshot_blob_key, page_screenshot_blob_key, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (target_id, area_id, check_id) DO NOTHING`,
      [
        context.targetId,
        context.userId,
        version.area.areaId,
        context.checkId,
        context.updateId,
        version.area.html,
        version.area.text,
        version.normalisedText,
        version.contentHash,
        version.area.screenshotBlobKey,
        context.pageScreenshotBlobKey,
        context.recordedAt,
      ],
    );
  }
}

/**
 * Drops versions no check will read again: beyond the newest the engine may compare with, except
 * each area's first (the data at registration). Answers the screenshot keys no version keeps.
 */
export async function pruneVersions(tx: Sql, targetId: string): Promise<string[]> {
  const { rows } = await tx.query<{ key: string }>(
    `WITH ranked AS (
       SELECT id,
              row_number() OVER (PARTITION BY area_id ORDER BY id DESC) AS newest,
              row_number() OVER (PARTITION BY area_id ORDER BY id ASC) AS oldest
         FROM diff.area_versions WHERE target_id = $1
     ), gone AS (
       DELETE FROM diff.area_versions version USING ranked
        WHERE version.id = ranked.id AND ranked.newest > $2 AND ranked.oldest > 1
       RETURNING version.screenshot_blob_key, version.page_screenshot_blob_key
     )
     SELECT DISTINCT key FROM (
       SELECT screenshot_blob_key AS key FROM gone UNION ALL SELECT page_screenshot_blob_key FROM gone
     ) keys WHERE key <> ''`,
    [targetId, MAX_PAST_VERSIONS],
  );
  if (rows.length === 0) return [];
  // A page picture is shared by every area of its check; it goes once no version keeps it.
  const { rows: still } = await tx.query<{ key: string }>(
    `SELECT DISTINCT key FROM (
       SELECT screenshot_blob_key AS key FROM diff.area_versions WHERE target_id = $1
       UNION ALL SELECT page_screenshot_blob_key FROM diff.area_versions WHERE target_id = $1
     ) keys WHERE key = ANY($2)`,
    [targetId, rows.map((row) => row.key)],
  );
  const kept = new Set(still.map((row) => row.key));
  return rows.map((row) => row.key).filter((key) => !kept.has(key));
}
