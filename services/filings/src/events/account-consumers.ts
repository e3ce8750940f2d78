import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountCancelled, streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import type { FilingsStore } from '../store/filings-store.ts';
import { FILINGS_SCHEMA } from '../store/migrations.ts';

/**
 * A cancelled account's follows go, so its companies stop being polled for it and no
 * filings.published names it. Runs once per event id (processed_events).
 */
export function accountConsumers(db: Db, store: FilingsStore, logger: Logger): CatalogEntry[] {
  return [
    {
      stream: streams.accounts.name,
      durable: 'filings-account-cancelled',
      subject: accountCancelled.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      handler: idempotent(db, FILINGS_SCHEMA, 'filings-account-cancelled', async (message, tx) => {
        const { userId } = accountCancelled.decode(message.data);
        const removed = await store.unfollowAll(tx, userId);
        logger.info({ userId, removed }, 'account cancelled: follows removed');
      }),
    },
  ];
}
