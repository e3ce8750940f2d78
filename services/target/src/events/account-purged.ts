import { type CatalogEntry, eraseEventTraces, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountPurged, streams } from '@mimamori/events';
import { TARGET_SCHEMA } from '../store/migrations.ts';

const S = TARGET_SCHEMA;

/**
 * A deleted account's grace period is over (accounts.purged): whatever is left of its sites, its
 * counters, and this service's event records naming the user or a site go.
 */
export function accountPurgedConsumer(db: Db): CatalogEntry {
  const durable = 'target-account-purged';
  return {
    stream: streams.accounts.name,
    durable,
    subject: accountPurged.subject,
    maxDeliver: 10,
    ackWaitMs: 60_000,
    handler: idempotent(db, S, durable, async (message, tx) => {
      const { userId, targetIds } = accountPurged.decode(message.data);
      const { rows } = await tx.query<{ id: string }>(
        `DELETE FROM ${S}.targets WHERE user_id = $1 RETURNING id`,
        [userId],
      );
      await tx.query(`DELETE FROM ${S}.user_counters WHERE user_id = $1`, [userId]);
      await eraseEventTraces(tx, S, [userId, ...targetIds, ...rows.map((row) => row.id)]);
    }),
  };
}
