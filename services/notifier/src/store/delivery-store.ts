import type { Db } from '@mimamori/db';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import { NOTIFIER_SCHEMA } from './migrations.ts';

export function createDeliveryStore(db: Db): DeliveryLedger {
  return {
    async begin(id, channel) {
      const { rows } = await db.query<{ status: string }>(
        `INSERT INTO ${NOTIFIER_SCHEMA}.deliveries (id, channel, status, attempts) VALUES ($1, $2, 'sending', 1)
         ON CONFLICT (id) DO UPDATE SET attempts = deliveries.attempts + 1
         RETURNING status`,
        [id, channel],
      );
      const status = rows[0]?.status;
      return status === 'sent' ? 'already_sent' : status === 'given_up' ? 'given_up' : 'send';
    },
    async markSent(id) {
      await db.query(
        `UPDATE ${NOTIFIER_SCHEMA}.deliveries SET status = 'sent', sent_at = now() WHERE id = $1`,
        [id],
      );
    },
    async markGivenUp(id) {
      await db.query(`UPDATE ${NOTIFIER_SCHEMA}.deliveries SET status = 'given_up' WHERE id = $1`, [id]);
    },
  };
}
