import type { Sql } from '@mimamori/db';
import type { AreaUpdate, MatchedRule } from '../domain/judge-check.ts';

export type HistoryFilter = 'all' | 'update' | 'error';

export interface HistoryPosition {
  completedAt: Date;
  checkId: string;
}

export interface HistoryQuery {
  userId: string;
  targetId: string;
  filter: HistoryFilter;
  /** One day (`YYYY-MM-DD`) in timeZone, or null for all days. */
  day: string | null;
  timeZone: string;
}

/** An area of a recorded update; those recorded before summaries were kept have none. */
export type StoredAreaUpdate = Omit<AreaUpdate, 'summaryJa' | 'summaryEn'> &
  Partial<Pick<AreaUpdate, 'summaryJa' | 'summaryEn'>>;

export interface HistoryRow {
  check_id: string;
  due_at: Date | null;
  completed_at: Date;
  outcome: 'no_change' | 'update' | 'error';
  error_code: string;
  error_detail: string;
  update_id: string | null;
  notify: boolean | null;
  matched: MatchedRule[] | null;
  areas: StoredAreaUpdate[] | null;
  before_screenshot_blob_key: string | null;
  after_screenshot_blob_key: string | null;
  created_at: Date | null;
}

/**
 * Whether the site is the user's, as far as the diff service has heard of it: from its checks
 * (the gateway shows a site diff has judged no check of yet with an empty history).
 */
export async function ownsTarget(db: Sql, userId: string, targetId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM diff.check_results WHERE target_id = $1 AND user_id = $2 LIMIT 1',
    [targetId, userId],
  );
  return rowCount > 0;
}

/**
 * A page of history from `from` (exclusive) towards older or newer entries, in the order read
 * (newest first for older, oldest first for newer); one row more than asked tells that more exist.
 */
export async function historyPage(
  db: Sql,
  query: HistoryQuery,
  from: HistoryPosition | null,
  direction: 'older' | 'newer',
  limit: number,
): Promise<HistoryRow[]> {
  const { where, params } = conditions(query, from, direction);
  const order = direction === 'older' ? 'DESC' : 'ASC';
  const { rows } = await db.query<HistoryRow>(
    `SELECT r.check_id, r.due_at, r.completed_at, r.outcome, r.error_code, r.error_detail, r.update_id,
            u.notify, u.matched, u.areas, u.before_screenshot_blob_key, u.after_screenshot_blob_key,
            u.created_at
       FROM diff.check_results r LEFT JOIN diff.updates u ON u.update_id = r.update_id
      WHERE ${where}
      ORDER BY r.completed_at ${order}, r.check_id ${order}
      LIMIT ${limit}`,
    params,
  );
  return rows;
}

/** Whether any entry lies beyond `from` in the direction. */
export async function historyBeyond(
  db: Sql,
  query: HistoryQuery,
  from: HistoryPosition,
  direction: 'older' | 'newer',
): Promise<boolean> {
  const { where, params } = conditions(query, from, direction);
  const { rowCount } = await db.query(`SELECT 1 FROM diff.check_results r WHERE ${where} LIMIT 1`, params);
  return rowCount > 0;
}

function conditions(
  query: HistoryQuery,
  from: HistoryPosition | null,
  direction: 'older' | 'newer',
): { where: string; params: unknown[] } {
  const params: unknown[] = [query.targetId, query.userId];
  const where = ['r.target_id = $1', 'r.user_id = $2'];
  if (query.filter !== 'all') {
    params.push(query.filter);
    where.push(`r.outcome = $${params.length}`);
  }
  if (query.day) {
    params.push(query.timeZone, query.day);
    where.push(`(r.completed_at AT TIME ZONE $${params.length - 1})::date = $${params.length}::date`);
  }
  if (from) {
    params.push(from.completedAt, from.checkId);
    const comparison = direction === 'older' ? '<' : '>';
    where.push(`(r.completed_at, r.check_id) ${comparison} ($${params.length - 1}, $${params.length})`);
  }
  return { where: where.join(' AND '), params };
}

export interface RegisteredAreaRow {
  area_id: string;
  normalised_text: string;
  screenshot_blob_key: string;
  page_screenshot_blob_key: string;
  recorded_at: Date;
}

/** Each area's first recorded version. */
export async function registrationData(
  db: Sql,
  userId: string,
  targetId: string,
): Promise<RegisteredAreaRow[]> {
  const { rows } = await db.query<RegisteredAreaRow>(
    `SELECT DISTINCT ON (area_id) area_id, normalised_text, screenshot_blob_key, page_screenshot_blob_key,
            recorded_at
       FROM diff.area_versions WHERE target_id = $1 AND user_id = $2
      ORDER BY area_id, id ASC`,
    [targetId, userId],
  );
  return rows.sort((a, b) => a.recorded_at.getTime() - b.recorded_at.getTime());
}
