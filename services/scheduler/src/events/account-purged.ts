import { type CatalogEntry, eraseEventTraces, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountPurged, streams } from '@mimamori/events';
import { SCHEDULER_SCHEMA } from '../store/migrations.ts';

const S = SCHEDULER_SCHEMA;

/**
 * A deleted account's grace period is over (accounts.purged): its schedules (with the sign-in
 * state kept for them), the tombstones of its deleted sites and the event records naming them go.
 */
export function accountPurgedConsumer(db: Db): CatalogEntry {
  const durable = 'scheduler-account-purged';
  return {
    stream: streams.accounts.name,
    durable,
    subject: accountPurged.subject,
    maxDeliver: 10,
    ackWaitMs: 60_000,
    handler: idempotent(db, S, durable, async (message, tx) => {
      const { userId, targetIds } = accountPurged.decode(message.data);
      const { rows } = await tx.query<{ target_id: string }>(
        `DELETE FROM ${S}.schedules WHERE user_id = $1 RETURNING target_id`,
        [userId],
      );
      const ids = [...targetIds, ...rows.map((row) => row.target_id)];
      await tx.query(`DELETE FROM ${S}.removed_targets WHERE target_id = ANY($1::text[])`, [ids]);
      await eraseEventTraces(tx, S, [userId, ...ids]);
    }),
  };
}
