import type { Db } from '@mimamori/db';
import { NOTIFIER_SCHEMA } from './migrations.ts';

const S = NOTIFIER_SCHEMA;

/**
 * Deletes what no event can need any more. A delivery row answers redeliveries of its event;
 * past the retention (days, against JetStream's 2-minute duplicate window and an event's last
 * redelivery within hours) only a dead letter redriven by hand could come back, and it would
 * send again. An error streak not extended for that long belongs to a site that works (a success
 * with no run going leaves the row as it is, ADR 0032) or is no longer checked (paused or deleted
 * with its event lost); either starts afresh from no streak.
 */
export async function sweepNotifier(
  db: Db,
  keepMs: number,
): Promise<{ deliveries: number; errorStreaks: number }> {
  const seconds = keepMs / 1000;
  const deliveries = await db.query(
    `DELETE FROM ${S}.deliveries
      WHERE created_at < now() - make_interval(secs => $1)
        AND (status <> 'sending' OR claimed_until IS NULL OR claimed_until < now())`,
    [seconds],
  );
  const errorStreaks = await db.query(
    `DELETE FROM ${S}.error_streaks WHERE last_due_at < now() - make_interval(secs => $1)`,
    [seconds],
  );
  return { deliveries: deliveries.rowCount, errorStreaks: errorStreaks.rowCount };
}
