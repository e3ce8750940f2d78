import type { Sql } from '@mimamori/db';
import type { ScheduleState } from '../domain/schedule-state.ts';
import { SCHEDULER_SCHEMA } from './migrations.ts';

const schedules = `${SCHEDULER_SCHEMA}.schedules`;
const removed = `${SCHEDULER_SCHEMA}.removed_targets`;
const keptState = `${SCHEDULER_SCHEMA}.kept_check_state`;

/** A site due in a dispatch window. */
export interface DueSchedule {
  targetId: string;
  phaseMs: number;
  checkTemplate: Uint8Array;
  backoffUntil: Date | null;
  /** The session kept from the site's last checks, sealed; sent with the check (ADR 0016). */
  sealedSessionState: string | null;
  /** The areas' digest of the site's last successful check (ADR 0016). */
  areasDigest: string | null;
  /** What the site's last full browser render kept for revalidating, sealed (ADR 0031). */
  sealedRevalidationState: string | null;
}

export interface ScheduleCounters {
  intervalMs: number;
  failures: number;
  lastResultDueAt: Date | null;
}

/** A site that started monitoring lately, with what its start checks send (ADR 0020). */
export interface StartedSchedule extends DueSchedule {
  intervalMs: number;
  startedAt: Date;
}

/**
 * Writes the state unless the row already holds the same or a newer revision, or the site was
 * deleted at that revision or later. A changed interval keeps the failure count (the site
 * is the same) but the backoff restarts from the next result. A state that turns the site from
 * paused (or absent) to monitoring marks its start, at the time of that state (ADR 0020).
 */
export async function saveSchedule(sql: Sql, state: ScheduleState): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO ${schedules}
       (target_id, user_id, interval_ms, phase_ms, active, revision, changed_at, check_template, started_at)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $5 THEN $7::timestamptz END
      WHERE NOT EXISTS (SELECT 1 FROM ${removed} WHERE target_id = $1 AND revision >= $6)
     ON CONFLICT (target_id) DO UPDATE SET
       user_id = EXCLUDED.user_id, interval_ms = EXCLUDED.interval_ms, phase_ms = EXCLUDED.phase_ms,
       active = EXCLUDED.active, revision = EXCLUDED.revision, changed_at = EXCLUDED.changed_at,
       check_template = EXCLUDED.check_template,
       started_at = CASE WHEN EXCLUDED.active AND NOT ${schedules}.active
                         THEN EXCLUDED.started_at ELSE ${schedules}.started_at END
     WHERE ${schedules}.revision < EXCLUDED.revision`,
    [
      state.targetId,
      state.userId,
      state.intervalMs,
      state.phaseMs,
      state.active,
      state.revision,
      state.changedAt,
      state.checkTemplate,
    ],
  );
  return rowCount > 0;
}

/** Removes a deleted site's schedule and remembers the deletion against late events. */
export async function removeSchedule(sql: Sql, targetId: string, revision: number): Promise<void> {
  await sql.query(`DELETE FROM ${schedules} WHERE target_id = $1`, [targetId]);
  await sql.query(
    `INSERT INTO ${removed} (target_id, revision) VALUES ($1, $2)
     ON CONFLICT (target_id) DO UPDATE SET revision = GREATEST(${removed}.revision, EXCLUDED.revision)`,
    [targetId, revision],
  );
}

/** Stops every site of a user whose state predates `at` (an account hold); returns how many. */
export async function stopUserSchedules(sql: Sql, userId: string, at: Date): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE ${schedules} SET active = false WHERE user_id = $1 AND active AND changed_at <= $2`,
    [userId, at],
  );
  return rowCount;
}

/** Removes every site of a cancelled account whose state predates `at`; returns how many. */
export async function removeUserSchedules(sql: Sql, userId: string, at: Date): Promise<number> {
  const { rows } = await sql.query<{ target_id: string; revision: string }>(
    `DELETE FROM ${schedules} WHERE user_id = $1 AND changed_at <= $2 RETURNING target_id, revision`,
    [userId, at],
  );
  for (const row of rows) await removeSchedule(sql, row.target_id, Number(row.revision));
  return rows.length;
}

/** The counters a check result updates, locked for the caller's transaction. */
export async function lockCounters(sql: Sql, targetId: string): Promise<ScheduleCounters | undefined> {
  const { rows } = await sql.query<{
    interval_ms: string;
    failures: number;
    last_result_due_at: Date | null;
  }>(`SELECT interval_ms, failures, last_result_due_at FROM ${schedules} WHERE target_id = $1 FOR UPDATE`, [
    targetId,
  ]);
  const row = rows[0];
  if (!row) return undefined;
  return {
    intervalMs: Number(row.interval_ms),
    failures: row.failures,
    lastResultDueAt: row.last_result_due_at,
  };
}

/** The site's consecutive failures, read without a lock (0 for a site without a schedule). */
export async function failuresOf(sql: Sql, targetId: string): Promise<number> {
  const { rows } = await sql.query<{ failures: number }>(
    `SELECT failures FROM ${schedules} WHERE target_id = $1`,
    [targetId],
  );
  return rows[0]?.failures ?? 0;
}

export async function saveCounters(
  sql: Sql,
  targetId: string,
  counters: { failures: number; backoffUntil: Date | undefined; lastResultDueAt: Date },
): Promise<void> {
  await sql.query(
    `UPDATE ${schedules} SET failures = $2, backoff_until = $3, last_result_due_at = $4 WHERE target_id = $1`,
    [targetId, counters.failures, counters.backoffUntil ?? null, counters.lastResultDueAt],
  );
}

/** The intervals active sites use: a walk down the due index, one probe per distinct interval. */
export async function activeIntervals(sql: Sql): Promise<number[]> {
  const { rows } = await sql.query<{ interval_ms: string }>(
    `WITH RECURSIVE used AS (
       (SELECT interval_ms FROM ${schedules} WHERE active ORDER BY interval_ms LIMIT 1)
       UNION ALL
       SELECT (SELECT s.interval_ms FROM ${schedules} s
                WHERE s.active AND s.interval_ms > used.interval_ms ORDER BY s.interval_ms LIMIT 1)
         FROM used WHERE used.interval_ms IS NOT NULL
     )
     SELECT interval_ms FROM used WHERE interval_ms IS NOT NULL`,
  );
  return rows.map((row) => Number(row.interval_ms));
}

/**
 * The active sites of one interval whose phase lies in [low, high], each with what its last
 * successful check left (session, areas' digest), unless the site's settings changed after that
 * check was due (a changed login may sign in as someone else; changed areas read differently).
 */
export async function schedulesInPhases(
  sql: Sql,
  intervalMs: number,
  low: number,
  high: number,
): Promise<DueSchedule[]> {
  const { rows } = await sql.query<{
    target_id: string;
    phase_ms: string;
    check_template: Uint8Array;
    backoff_until: Date | null;
    sealed_session_state: string | null;
    areas_digest: string | null;
    sealed_revalidation_state: string | null;
  }>(
    `SELECT s.target_id, s.phase_ms, s.check_template, s.backoff_until, k.sealed_session_state, k.areas_digest,
            k.sealed_revalidation_state
       FROM ${schedules} s
       LEFT JOIN ${keptState} k ON k.target_id = s.target_id AND k.check_due_at >= s.changed_at
      WHERE s.active AND s.interval_ms = $1 AND s.phase_ms BETWEEN $2 AND $3`,
    [intervalMs, low, high],
  );
  return rows.map((row) => ({
    targetId: row.target_id,
    phaseMs: Number(row.phase_ms),
    checkTemplate: row.check_template,
    backoffUntil: row.backoff_until,
    sealedSessionState: row.sealed_session_state,
    areasDigest: row.areas_digest,
    sealedRevalidationState: row.sealed_revalidation_state,
  }));
}

/**
 * The active sites that started monitoring in (after, until], each with what its last successful
 * check left, as schedulesInPhases answers it: a tick's start checks (ADR 0020).
 */
export async function schedulesStartedIn(sql: Sql, after: Date, until: Date): Promise<StartedSchedule[]> {
  const { rows } = await sql.query<{
    target_id: string;
    interval_ms: string;
    phase_ms: string;
    started_at: Date;
    check_template: Uint8Array;
    backoff_until: Date | null;
    sealed_session_state: string | null;
    areas_digest: string | null;
    sealed_revalidation_state: string | null;
  }>(
    `SELECT s.target_id, s.interval_ms, s.phase_ms, s.started_at, s.check_template, s.backoff_until,
            k.sealed_session_state, k.areas_digest,
            k.sealed_revalidation_state
       FROM ${schedules} s
       LEFT JOIN ${keptState} k ON k.target_id = s.target_id AND k.check_due_at >= s.changed_at
      WHERE s.active AND s.started_at > $1 AND s.started_at <= $2`,
    [after, until],
  );
  return rows.map((row) => ({
    targetId: row.target_id,
    intervalMs: Number(row.interval_ms),
    phaseMs: Number(row.phase_ms),
    startedAt: row.started_at,
    checkTemplate: row.check_template,
    backoffUntil: row.backoff_until,
    sealedSessionState: row.sealed_session_state,
    areasDigest: row.areas_digest,
    sealedRevalidationState: row.sealed_revalidation_state,
  }));
}

/**
 * Keeps what a successful check of the site left: its areas' digest, and its session and
 * revalidation state when it brought them (a check without one keeps the earlier). Nothing changes when a check due later
 * already left its state, the site has no schedule (deleted), or its settings changed after
 * this check was due. A check due at the very time of the change is kept: a start check is due at
 * its start, which is the change (ADR 0020), and was sent with the new settings; refusing it left
 * a new site's second check with nothing kept, so a browser site rendered it in full.
 */
export async function keepCheckState(
  sql: Sql,
  state: {
    targetId: string;
    sealedSessionState: string;
    areasDigest: string;
    sealedRevalidationState?: string;
    checkDueAt: Date;
  },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO ${keptState} (target_id, sealed_session_state, areas_digest, check_due_at, sealed_revalidation_state)
     SELECT target_id, $2, $3, $4, $5 FROM ${schedules} WHERE target_id = $1 AND changed_at <= $4
     ON CONFLICT (target_id) DO UPDATE SET
       sealed_session_state = CASE WHEN EXCLUDED.sealed_session_state = ''
         THEN ${keptState}.sealed_session_state ELSE EXCLUDED.sealed_session_state END,
       sealed_revalidation_state = CASE WHEN EXCLUDED.sealed_revalidation_state = ''
         THEN ${keptState}.sealed_revalidation_state ELSE EXCLUDED.sealed_revalidation_state END,
       areas_digest = EXCLUDED.areas_digest, check_due_at = EXCLUDED.check_due_at
     WHERE ${keptState}.check_due_at < EXCLUDED.check_due_at
       -- A check that read the areas as kept and brought no new session leaves the row as it is
       -- (ADR 0032), unless the site's settings changed since the kept check, which makes the
       -- kept state unsendable until a newer check stamps it. A render's new revalidation state
       -- is kept (ADR 0031); a check answered without rendering brings none.
       AND (${keptState}.areas_digest <> EXCLUDED.areas_digest
            OR (EXCLUDED.sealed_session_state <> ''
                AND EXCLUDED.sealed_session_state <> ${keptState}.sealed_session_state)
            OR EXCLUDED.sealed_revalidation_state <> ''
            OR ${keptState}.check_due_at < (SELECT changed_at FROM ${schedules} WHERE target_id = $1))`,
    [
      state.targetId,
      state.sealedSessionState,
      state.areasDigest,
      state.checkDueAt,
      state.sealedRevalidationState ?? '',
    ],
  );
  return rowCount > 0;
}

/** Whether the migrations have run (the dispatcher starts before the service host applies them). */
export async function schedulesExist(sql: Sql): Promise<boolean> {
  const { rows } = await sql.query<{ present: boolean }>(
    `SELECT to_regclass('${SCHEDULER_SCHEMA}.processed_events') IS NOT NULL AS present`,
  );
  return rows[0]?.present === true;
}
