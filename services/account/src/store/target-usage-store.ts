import type { Sql } from '@mimamori/db';
import { NO_QUOTA, type Quota } from '@mimamori/plans';
import { ACCOUNT_SCHEMA as S } from './migrations.ts';

export interface TargetUsageReport {
  userId: string;
  revision: number;
  demand: Quota;
}

/** Keeps a usage report unless a newer one is already kept (reports may arrive out of order). */
export async function recordTargetUsage(tx: Sql, report: TargetUsageReport): Promise<void> {
  const { demand } = report;
  await tx.query(
    `INSERT INTO ${S}.site_usage (user_id, revision, min60, min10, min1, random_ip, ss, line_notify)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (user_id) DO UPDATE SET
       revision = EXCLUDED.revision, min60 = EXCLUDED.min60, min10 = EXCLUDED.min10, min1 = EXCLUDED.min1,
       random_ip = EXCLUDED.random_ip, ss = EXCLUDED.ss, line_notify = EXCLUDED.line_notify
     WHERE ${S}.site_usage.revision < EXCLUDED.revision`,
    [
      report.userId,
      report.revision,
      demand._60min,
      demand._10min,
      demand._1min,
      demand.random_ip,
      demand.ss,
      demand.line_notify,
    ],
  );
}

export async function loadTargetDemand(db: Sql, userId: string): Promise<Quota | null> {
  const { rows } = await db.query<{
    min60: number;
    min10: number;
    min1: number;
    random_ip: number;
    ss: number;
    line_notify: number;
  }>(`SELECT min60, min10, min1, random_ip, ss, line_notify FROM ${S}.site_usage WHERE user_id = $1`, [
    userId,
  ]);
  const row = rows[0];
  if (!row) return null;
  return {
    ...NO_QUOTA,
    _60min: row.min60,
    _10min: row.min10,
    _1min: row.min1,
    random_ip: row.random_ip,
    ss: row.ss,
    line_notify: row.line_notify,
  };
}
