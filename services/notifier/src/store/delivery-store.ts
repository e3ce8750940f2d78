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
      return rows[0]?.status === 'sent' ? 'already_sent' : 'send';
    },
    async markSent(id) {
      await db.query(
        `UPDATE ${NOTIFIER_SCHEMA}.deliveries SET status = 'sent', sent_at = now() WHERE id = $1`,
        [id],
      );
    },
  };
}
