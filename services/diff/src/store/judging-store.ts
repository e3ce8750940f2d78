import type { Sql } from '@mimamori/db';
import type { RecordedVersion } from '../domain/judge-check.ts';
import type { HistoryLimits } from './history-retention.ts';

/** What judging a snapshot reads of its site before it writes anything. */
export interface JudgingState {
  /** The check's result is recorded already: a redelivery. */
  judged: boolean;
  /** The site was deleted. */
  forgotten: boolean;
  /** The history limits kept for the site; null when none are. */
  limits: HistoryLimits | null;
  /** Each area's recorded versions, newest first, as many as the area's comparison reads. */
  versions: Map<string, RecordedVersion[]>;
}

/**
 * Everything judging a snapshot reads, in one query (ADR 0037): whether the check was judged
 * already, whether its site is gone, the history limits kept, and each area's newest versions,
 * `areas[].versions` of them (1, or the past updates 'exclude same as past' compares with).
 * Read under the site's advisory lock, in the judging transaction.
 */
export async function readJudging(
  tx: Sql,
  checkId: string,
  targetId: string,
  areas: readonly { areaId: string; versions: number }[],
): Promise<JudgingState> {
  const { rows } = await tx.query<{
    judged: boolean;
    forgotten: boolean;
    keep_updates: number | null;
    keep_check_days: number | null;
    versions: { area_id: string; html: string | null; text: string | null }[];
  }>(
    `SELECT EXISTS (SELECT 1 FROM diff.check_results WHERE check_id = $1) AS judged,
            EXISTS (SELECT 1 FROM diff.forgotten_targets WHERE target_id = $2) AS forgotten,
            limits.keep_updates, limits.keep_check_days,
            (SELECT coalesce(json_agg(json_build_object('area_id', area_id, 'html', html, 'text', text)
                                      ORDER BY area_id, id DESC), '[]'::json)
               FROM (SELECT version.area_id, version.html, version.text, version.id, wanted.keep,
                            row_number() OVER (PARTITION BY version.area_id ORDER BY version.id DESC) AS n
                       FROM diff.area_versions version
                       JOIN unnest($3::text[], $4::int[]) AS wanted (area_id, keep)
                         ON wanted.area_id = version.area_id
                      WHERE version.target_id = $2) newest
              WHERE n <= keep) AS versions
       FROM (SELECT 1) one LEFT JOIN diff.history_limits limits ON limits.target_id = $2`,
    [checkId, targetId, areas.map((area) => area.areaId), areas.map((area) => area.versions)],
  );
  const row = rows[0];
  if (!row) throw new Error('the judging read answered no row');
  const versions = new Map<string, RecordedVersion[]>();
  for (const version of row.versions) {
    const list = versions.get(version.area_id) ?? [];
    list.push({ html: version.html, text: version.text });
    versions.set(version.area_id, list);
  }
  return {
    judged: row.judged,
    forgotten: row.forgotten,
    limits:
      row.keep_updates === null || row.keep_check_days === null
        ? null
        : { keepUpdates: row.keep_updates, keepCheckDays: row.keep_check_days },
    versions,
  };
}
