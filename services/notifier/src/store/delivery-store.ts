import { randomUUID } from 'node:crypto';
import type { Db } from '@mimamori/db';
import type { DeliveryClaim, DeliveryLedger } from '../domain/delivery-ledger.ts';
import { NOTIFIER_SCHEMA } from './migrations.ts';

const S = NOTIFIER_SCHEMA;

/**
 * The deliveries table as the ledger. A claim is the row in status `sending` with a token and
 * `claimed_until`; the insert-or-take-over is one statement, so of two copies arriving together
 * the second waits on the first one's row lock and then finds the claim held.
 */
export function createDeliveryStore(db: Db, options: { claimMs?: number } = {}): DeliveryLedger {
  const claimMs = options.claimMs ?? 120_000;
  return {
    claimMs,
    async claim(id, channel): Promise<DeliveryClaim> {
      const token = randomUUID();
      // Every copy that asks is counted; only one whose claim ran out (or was released) is
      // taken over.
      const free = `d.status = 'sending' AND (d.claimed_until IS NULL OR d.claimed_until <= now())`;
      const { rows } = await db.query<{ status: string; mine: boolean; left_ms: number | null }>(
        `INSERT INTO ${S}.deliveries AS d (id, channel, status, attempts, claim_token, claimed_until)
         VALUES ($1, $2, 'sending', 1, $3, now() + make_interval(secs => $4))
         ON CONFLICT (id) DO UPDATE SET
           attempts = d.attempts + 1,
           claim_token = CASE WHEN ${free} THEN EXCLUDED.claim_token ELSE d.claim_token END,
           claimed_until = CASE WHEN ${free} THEN EXCLUDED.claimed_until ELSE d.claimed_until END
         RETURNING status, claim_token = $3 AS mine,
           (extract(epoch FROM claimed_until - now()) * 1000)::bigint AS left_ms`,
        [id, channel, token, claimMs / 1000],
      );
      const row = rows[0];
      if (row?.status === 'sent') return { kind: 'already_sent' };
      if (row?.status === 'given_up' || row?.status === 'failed') return { kind: 'given_up' };
      if (row?.mine) return { kind: 'send', token };
      return { kind: 'held', retryAfterMs: Math.max(1_000, Math.min(claimMs, (row?.left_ms ?? 0) + 1_000)) };
    },
    async renew(id, token) {
      const { rowCount } = await db.query(
        `UPDATE ${S}.deliveries SET claimed_until = now() + make_interval(secs => $3)
          WHERE id = $1 AND claim_token = $2 AND status = 'sending'`,
        [id, token, claimMs / 1000],
      );
      return rowCount > 0;
    },
    async markSent(id) {
      await db.query(
        `UPDATE ${S}.deliveries SET status = 'sent', sent_at = now(), claimed_until = NULL WHERE id = $1`,
        [id],
      );
    },
    async markGivenUp(id) {
      await db.query(`UPDATE ${S}.deliveries SET status = 'given_up', claimed_until = NULL WHERE id = $1`, [
        id,
      ]);
    },
    async markFailed(id) {
      await db.query(
        `UPDATE ${S}.deliveries SET status = 'failed', claimed_until = NULL WHERE id = $1 AND status = 'sending'`,
        [id],
      );
    },
    async release(id, token) {
      await db.query(
        `UPDATE ${S}.deliveries SET claimed_until = NULL WHERE id = $1 AND claim_token = $2 AND status = 'sending'`,
        [id, token],
      );
    },
  };
}
