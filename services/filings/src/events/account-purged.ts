import { type CatalogEntry, eraseEventTraces, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountPurged, streams } from '@mimamori/events';
import { FILINGS_SCHEMA } from '../store/migrations.ts';

const S = FILINGS_SCHEMA;

/** A deleted account's grace period is over (accounts.purged): its follows and the event records naming it go. */
export function accountPurgedConsumer(db: Db): CatalogEntry {
  const durable = 'filings-account-purged';
  return {
    stream: streams.accounts.name,
    durable,
    subject: accountPurged.subject,
    maxDeliver: 10,
    ackWaitMs: 60_000,
    handler: idempotent(db, S, durable, async (message, tx) => {
      const { userId } = accountPurged.decode(message.data);
      await tx.query(`DELETE FROM ${S}.follows WHERE user_id = $1`, [userId]);
      await eraseEventTraces(tx, S, [userId]);
    }),
  };
}
