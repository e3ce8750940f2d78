import type { Db, Sql } from '@mimamori/db';
import {
  changesBeyondDueTime,
  countCheck,
  type FailureKind,
  type FailureStreak,
  failureKindOf,
  isFailing,
  NO_STREAK,
} from '@mimamori/watch-engine';
import type { CheckOutcome } from '../domain/check-outcome.ts';
import { isTargetId } from '../domain/target-id.ts';
import type { TargetPort, TargetUnit } from '../domain/target-port.ts';
import { TargetProblem } from '../domain/target-problem.ts';
import type { TargetRecord } from '../domain/target-record.ts';
import { TARGET_SCHEMA as S } from './migrations.ts';
import { writeDeletedEvent, writeStateEvent, writeUsageEvent } from './target-events.ts';
import { type TargetTableRow, toTargetRecord } from './target-table-row.ts';

export interface TargetStore extends TargetPort {
  /** The same unit inside a transaction someone else runs (an idempotent event handler). */
  within(tx: Sql, userId: string): Promise<TargetUnit>;
  /**
   * Moves the row's 'checked' (and, for an update, 'updated' and the NEW flag) forward; a
   * check older than the one shown, or of a deleted site, changes nothing. A success while the
   * site works is one statement; anything more runs in a transaction of its own.
   */
  recordCheck(check: CheckOutcome): Promise<void>;
  /** Every user's sites in id order, after `afterId` (the scheduler's rebuild). */
  states(afterId: string, limit: number): Promise<TargetRecord[]>;
}

const COLUMNS = [
  'id',
  'user_id',
  'version',
  'no',
  'label',
  'url',
  'interval_minutes',
  'screenshot',
  'use_proxy',
  'mail_notify',
  'chat_notify',
  'sealed_discord_webhook',
  'user_agent_kind',
  'user_agent_value',
  'viewport_width',
  'viewport_height',
  'sealed_cookies',
  'login',
  'actions',
  'areas',
  'rules',
  'fetch_mode',
  'paused',
  'paused_reason',
  'is_new',
  'revision',
  'reader_lang',
  'reader_time_zone',
  'failure_alert_after',
  'silence_alert_days',
  'quiet_mode',
  'quiet_hours',
  'history_updates',
  'history_days',
  'content_kind',
  'always_render',
] as const;

function values(site: TargetRecord): unknown[] {
  return [
    site.id,
    site.userId,
    site.version,
    site.no,
    site.label,
    site.url,
    site.intervalMinutes,
    site.screenshot,
    site.useProxy,
    site.mailNotify,
    site.chatNotify,
    site.sealedDiscordWebhook,
    site.userAgentKind,
    site.userAgentValue,
    site.viewportWidth,
    site.viewportHeight,
    site.sealedCookies,
    site.login === null ? null : JSON.stringify(site.login),
    JSON.stringify(site.actions),
    JSON.stringify(site.areas),
    site.rules === null ? null : JSON.stringify(site.rules),
    site.fetchMode,
    site.paused,
    site.pausedReason,
    site.isNew,
    site.revision,
    site.reader.lang,
    site.reader.timeZone,
    site.failureAlertAfter,
    site.silenceAlertDays,
    site.quietMode,
    JSON.stringify(site.quietHours),
    site.history.updates,
    site.history.checkDays,
    site.contentKind,
    site.alwaysRender,
  ];
}

const SELECT = `SELECT ${COLUMNS.join(', ')}, last_update_at, failing_since, failing_kind,
  (SELECT checked_at FROM ${S}.last_checks WHERE target_id = targets.id) AS last_checked_at FROM ${S}.targets`;

export function createTargetStore(db: Db, now: () => Date = () => new Date()): TargetStore {
  const unitOn = (tx: Sql, userId: string): TargetUnit => ({
    async find(targetId, version) {
      const { rows } = await tx.query<TargetTableRow>(
        `${SELECT} WHERE id = $1 AND user_id = $2 AND ($3::smallint IS NULL OR version = $3)`,
        [targetId, userId, version],
      );
      const row = rows[0];
      return row ? toTargetRecord(row) : null;
    },
    async activeTargets(exceptId) {
      const { rows } = await tx.query<TargetTableRow>(
        `${SELECT} WHERE user_id = $1 AND NOT paused AND ($2::uuid IS NULL OR id <> $2) ORDER BY no`,
        [userId, exceptId ?? null],
      );
      return rows.map(toTargetRecord);
    },
    async allTargets() {
      const { rows } = await tx.query<TargetTableRow>(`${SELECT} WHERE user_id = $1 ORDER BY no`, [userId]);
      return rows.map(toTargetRecord);
    },
    async nextNo() {
      const { rows } = await tx.query<{ last_no: number }>(
        `INSERT INTO ${S}.user_counters (user_id, last_no) VALUES ($1, 1)
         ON CONFLICT (user_id) DO UPDATE SET last_no = ${S}.user_counters.last_no + 1
         RETURNING last_no`,
        [userId],
      );
      return rows[0]?.last_no ?? 1;
    },
    async insert(site) {
      const placeholders = COLUMNS.map((_, index) => `$${index + 1}`).join(', ');
      await tx.query(
        `INSERT INTO ${S}.targets (${COLUMNS.join(', ')}) VALUES (${placeholders})`,
        values(site),
      );
    },
    async save(site) {
      const sets = COLUMNS.slice(2)
        .map((column, index) => `${column} = $${index + 3}`)
        .join(', ');
      await tx.query(
        `UPDATE ${S}.targets SET ${sets}, saved_at = now() WHERE id = $1 AND user_id = $2`,
        values(site),
      );
    },
    async remove(site) {
      await tx.query(`DELETE FROM ${S}.targets WHERE id = $1 AND user_id = $2`, [site.id, userId]);
    },
    publish: (change, site) => writeStateEvent(tx, change, site, now()),
    publishDeleted: (site) => writeDeletedEvent(tx, site, now()),
    async publishUsage(demand) {
      const { rows } = await tx.query<{ usage_revision: string }>(
        `INSERT INTO ${S}.user_counters (user_id, usage_revision) VALUES ($1, 1)
         ON CONFLICT (user_id) DO UPDATE SET usage_revision = ${S}.user_counters.usage_revision + 1
         RETURNING usage_revision`,
        [userId],
      );
      await writeUsageEvent(tx, userId, Number(rows[0]?.usage_revision ?? 1), demand, now());
    },
  });

  const lockUser = (tx: Sql, userId: string) =>
    tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`target-user:${userId}`]);

  return {
    forUser(userId, targetId, work) {
      return db.transaction(async (tx) => {
        if (targetId !== null) {
          // A second action on the same site while one runs is refused, not queued (docs/product.md#targets).
          const { rows } = await tx.query<{ claimed: boolean }>(
            'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS claimed',
            [`target-action:${targetId}`],
          );
          if (!rows[0]?.claimed) throw new TargetProblem('busy', 'action_in_progress');
        }
        await lockUser(tx, userId);
        return work(unitOn(tx, userId));
      });
    },
    async list(userId) {
      const { rows } = await db.query<TargetTableRow>(`${SELECT} WHERE user_id = $1 ORDER BY no`, [userId]);
      return rows.map(toTargetRecord);
    },
    async findOwn(userId, targetId) {
      if (!isTargetId(targetId)) return null;
      const { rows } = await db.query<TargetTableRow>(`${SELECT} WHERE id = $1 AND user_id = $2`, [
        targetId,
        userId,
      ]);
      const row = rows[0];
      return row ? toTargetRecord(row) : null;
    },
    async markSeen(userId, targetId, version) {
      const { rowCount } = await db.query(
        `UPDATE ${S}.targets SET is_new = false WHERE id = $1 AND user_id = $2 AND version = $3`,
        [targetId, userId, version],
      );
      return rowCount > 0;
    },
    async states(afterId, limit) {
      const { rows } = await db.query<TargetTableRow>(
        `${SELECT} WHERE ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
        [afterId === '' ? null : afterId, limit],
      );
      return rows.map(toTargetRecord);
    },
    async recordCheck(check) {
      // The check's time, in place, only forward; the only row an unchanged check writes here
      // (ADR 0032). Whether a newer check already finished is what a late failure is read by;
      // whether a run of failures is going tells a success that changes nothing else, so such a
      // check (most of them) is this one statement, its own transaction (ADR 0037).
      const { rows } = await db.query<{ newer: boolean; running: boolean }>(
        `WITH site AS (
                SELECT id, coalesce(failure_run->>'startedAt', '') <> '' AS running
                  FROM ${S}.targets WHERE id = $1 AND user_id = $2),
              before AS (SELECT checked_at FROM ${S}.last_checks WHERE target_id = $1),
              moved AS (
                INSERT INTO ${S}.last_checks (target_id, checked_at) SELECT id, $3 FROM site
                ON CONFLICT (target_id) DO UPDATE SET checked_at = EXCLUDED.checked_at
                 WHERE last_checks.checked_at < EXCLUDED.checked_at
                RETURNING checked_at)
         SELECT coalesce((SELECT checked_at FROM before) > $3, false) AS newer, running
           FROM site`,
        [check.targetId, check.userId, check.completedAt],
      );
      const site = rows[0];
      if (!site) return;
      if (check.outcome !== 'error' && check.outcome !== 'update' && !site.running) return;
      await db.transaction(async (tx) => {
        await recordFailureRun(tx, check, site);
        if (check.outcome !== 'update') return;
        await tx.query(
          `UPDATE ${S}.targets
              SET last_update_at = GREATEST(last_update_at, $3),
                  is_new = is_new OR last_update_at IS NULL OR last_update_at < $3
            WHERE id = $1 AND user_id = $2`,
          [check.targetId, check.userId, check.completedAt],
        );
      });
    },
    async within(tx, userId) {
      await lockUser(tx, userId);
      return unitOn(tx, userId);
    },
  };
}

interface StoredRun {
  lastDueAt: string | null;
  startedAt: string | null;
  /** Absent in runs stored before the alert named the history's times. */
  failedSince?: string | null;
  counts: FailureStreak['counts'];
  lastKind: FailureKind | null;
  lastAreaId: string;
}

/**
 * Counts the check into the site's run of failures (in due-time order, under the row's lock) and
 * keeps the failing state the list shows. The notifier counts the same run for its alerts.
 */
async function recordFailureRun(
  tx: Sql,
  check: CheckOutcome,
  site: { newer: boolean; running: boolean },
): Promise<void> {
  // A success with no run going changes nothing (ADR 0032): told, by the read before, without
  // taking the site row's lock, which would itself write the wide row's header.
  if (check.outcome !== 'error' && !site.running) return;
  const { rows } = await tx.query<{ failure_run: StoredRun | null; failure_alert_after: number }>(
    `SELECT failure_run, failure_alert_after FROM ${S}.targets WHERE id = $1 AND user_id = $2 FOR UPDATE`,
    [check.targetId, check.userId],
  );
  const row = rows[0];
  if (!row) return;
  const stored = row.failure_run;
  const held: FailureStreak = stored
    ? {
        ...NO_STREAK,
        lastDueAt: stored.lastDueAt ? new Date(stored.lastDueAt) : null,
        startedAt: stored.startedAt ? new Date(stored.startedAt) : null,
        failedSince: stored.failedSince ? new Date(stored.failedSince) : null,
        counts: stored.counts,
        lastKind: stored.lastKind,
        lastAreaId: stored.lastAreaId,
      }
    : NO_STREAK;
  const failure =
    check.outcome === 'error'
      ? { kind: failureKindOf(check.errorCode, check.errorDetail), areaId: check.errorAreaId }
      : null;
  // A failure reported after a newer check had finished does not start a run: with no run going,
  // that newer check worked, and the success was not written down (below).
  if (failure && !held.startedAt && site.newer) return;
  const run = countCheck(held, { dueAt: check.dueAt, completedAt: check.completedAt, failure });
  // A success with no run going changes nothing but the due time; it is not written (ADR 0032).
  if (!run || !changesBeyondDueTime(held, run)) return;
  const failing = isFailing(run, row.failure_alert_after);
  await tx.query(
    `UPDATE ${S}.targets
        SET failure_run = $2,
            failing_since = CASE WHEN $3 THEN $4::timestamptz END,
            failing_kind = CASE WHEN $3 THEN $5 END
      WHERE id = $1`,
    [
      check.targetId,
      JSON.stringify({
        lastDueAt: run.lastDueAt,
        startedAt: run.startedAt,
        failedSince: run.failedSince,
        counts: run.counts,
        lastKind: run.lastKind,
        lastAreaId: run.lastAreaId,
      }),
      failing,
      // The time the history shows for the run's first failed check, as the alert names it.
      run.failedSince ?? run.startedAt,
      run.lastKind,
    ],
  );
}
