import type { Db } from '@mimamori/db';
import type { SilenceWatch } from '@mimamori/watch-engine';
import { NOTIFIER_SCHEMA } from './migrations.ts';

const S = NOTIFIER_SCHEMA;

/**
 * Counts a successful check for the silence alert (docs/product.md#silence-alerts) and answers the
 * site's quiet spell as it stands: an update starts a new spell at its time; the first check ever
 * seen starts one too. A late or repeated check never moves a spell back. `read` is the spell as
 * the caller already read it (null: no row), so that an unchanged check costs no query here.
 */
export async function countForSilence(
  db: Db,
  targetId: string,
  check: { completedAt: Date; changed: boolean },
  read?: SilenceWatch | null,
): Promise<SilenceWatch> {
  // Only a first check or a newer update writes; an unchanged check reads (ADR 0032).
  const held =
    read !== undefined
      ? read
      : silenceOf(
          (
            await db.query<SilenceRow>(
              `SELECT last_change_at, told_for FROM ${S}.silences WHERE target_id = $1`,
              [targetId],
            )
          ).rows[0],
        );
  if (held && !(check.changed && held.lastChangeAt.getTime() < check.completedAt.getTime())) return held;
  const { rows } = await db.query<{ last_change_at: Date; told_for: Date | null }>(
    `INSERT INTO ${S}.silences (target_id, last_change_at) VALUES ($1, $2)
     ON CONFLICT (target_id) DO UPDATE SET last_change_at =
       CASE WHEN $3 THEN GREATEST(silences.last_change_at, EXCLUDED.last_change_at)
            ELSE silences.last_change_at END
     RETURNING last_change_at, told_for`,
    [targetId, check.completedAt, check.changed],
  );
  const row = rows[0];
  if (!row) throw new Error(`no silence row for ${targetId}`);
  return { lastChangeAt: row.last_change_at, toldFor: row.told_for };
}

/** A row of `silences` as the queries here read it. */
export interface SilenceRow {
  last_change_at: Date;
  told_for: Date | null;
}

/** The spell a row holds; null without a row. */
export function silenceOf(row: SilenceRow | undefined): SilenceWatch | null {
  return row ? { lastChangeAt: row.last_change_at, toldFor: row.told_for } : null;
}

/** The spell that began at `lastChangeAt` was told; a newer spell is left alone. */
export async function markSilenceTold(db: Db, targetId: string, lastChangeAt: Date): Promise<void> {
  await db.query(`UPDATE ${S}.silences SET told_for = $2 WHERE target_id = $1 AND last_change_at = $2`, [
    targetId,
    lastChangeAt,
  ]);
}
