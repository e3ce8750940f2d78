import type { CatalogEntry } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountPurged, streams } from '@mimamori/events';
import { NOTIFIER_SCHEMA } from '../store/migrations.ts';

const S = NOTIFIER_SCHEMA;

/**
 * A deleted account's grace period is over (accounts.purged): its sites' notices, failure runs, quiet spells
 * and updates held for a digest,
 * and the delivery records whose ids name the user or a site (an update's id carries its site's),
 * go. Deleting is its own idempotence: a second copy finds nothing.
 */
export function accountPurgedConsumer(db: Db): CatalogEntry {
  return {
    stream: streams.accounts.name,
    durable: 'notifier-account-purged',
    subject: accountPurged.subject,
    maxDeliver: 10,
    ackWaitMs: 60_000,
    handler: async (message) => {
      const { userId, targetIds } = accountPurged.decode(message.data);
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ target_id: string }>(
          `DELETE FROM ${S}.target_notices WHERE user_id = $1 OR target_id = ANY($2::text[]) RETURNING target_id`,
          [userId, targetIds],
        );
        const ids = [userId, ...new Set([...targetIds, ...rows.map((row) => row.target_id)])];
        await tx.query(`DELETE FROM ${S}.error_streaks WHERE target_id = ANY($1::text[])`, [ids]);
        await tx.query(`DELETE FROM ${S}.silences WHERE target_id = ANY($1::text[])`, [ids]);
        // Updates still waiting for a quiet hours digest hold the whole update event.
        await tx.query(`DELETE FROM ${S}.held_updates WHERE user_id = $1 OR target_id = ANY($2::text[])`, [
          userId,
          ids,
        ]);
        await tx.query(
          `DELETE FROM ${S}.deliveries d
            WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS n(id) WHERE position(n.id in d.id) > 0)`,
          [ids],
        );
      });
    },
  };
}
