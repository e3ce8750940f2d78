import { writeEvent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountCancelled, trialEnded } from '@mimamori/events';
import type { TrialPort } from '../domain/trial.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;
// Bounded batches keep each transaction short; the sweeper comes back for the rest.
const BATCH = 500;

export function createTrialStore(db: Db): TrialPort {
  return {
    holdEndedTrials(now, graceMs) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{ user_id: string; trial_ends_at: Date; delete_at: Date }>(
          `UPDATE ${S}.subscriptions s
              SET status = 7, delete_at = s.trial_ends_at + make_interval(secs => $2::double precision / 1000)
            WHERE s.user_id IN (SELECT user_id FROM ${S}.subscriptions
                                 WHERE status = 1 AND trial_ends_at <= $1 AND NOT has_card
                                 ORDER BY trial_ends_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING s.user_id, s.trial_ends_at, s.delete_at`,
          [now, graceMs],
        );
        for (const row of rows) {
          const eventId = `trial-ended:${row.user_id}`;
          await writeEvent(tx, S, {
            id: eventId,
            subject: trialEnded.subject,
            data: trialEnded.encode({
              eventId,
              userId: row.user_id,
              endedAt: row.trial_ends_at,
              deleteAt: row.delete_at,
            }),
          });
        }
        return rows.map((row) => row.user_id);
      });
    },

    cancelUnpaidHolds(now) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{ user_id: string }>(
          `UPDATE ${S}.subscriptions s SET status = 9
            WHERE s.user_id IN (SELECT user_id FROM ${S}.subscriptions
                                 WHERE status = 7 AND delete_at <= $1 AND NOT has_card
                                 ORDER BY delete_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING s.user_id`,
          [now],
        );
        const ids = rows.map((row) => row.user_id);
        if (ids.length === 0) return ids;
        await tx.query(`UPDATE ${S}.users SET deleted_at = $2 WHERE id = ANY($1::uuid[])`, [ids, now]);
        for (const userId of ids) {
          const eventId = `account-cancelled:${userId}`;
          await writeEvent(tx, S, {
            id: eventId,
            subject: accountCancelled.subject,
            data: accountCancelled.encode({ eventId, userId, cancelledAt: now, reason: 'trial_expired' }),
          });
        }
        return ids;
      });
    },
  };
}
