import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountCancelled, streams, trialEnded } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { SCHEDULER_SCHEMA } from '../store/migrations.ts';
import { removeUserSchedules, stopUserSchedules } from '../store/schedule-store.ts';

/**
 * Account holds and cancellations. The target service answers them too, with targets.paused
 * and targets.deleted for each site, which the schedule follows; acting on the account event
 * as well stops the checks even when those site events arrive late. Only what changed before
 * the hold is stopped, so a site the user resumed after it keeps running.
 */
export function accountConsumers(db: Db, logger: Logger): CatalogEntry[] {
  return [
    {
      stream: streams.accounts.name,
      durable: 'scheduler-trial-ended',
      subject: trialEnded.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      handler: idempotent(db, SCHEDULER_SCHEMA, 'scheduler-trial-ended', async (message, tx) => {
        const { userId, endedAt } = trialEnded.decode(message.data);
        const stopped = await stopUserSchedules(tx, userId, endedAt ?? new Date());
        logger.info({ userId, stopped }, 'account on hold: schedules stopped');
      }),
    },
    {
      stream: streams.accounts.name,
      durable: 'scheduler-account-cancelled',
      subject: accountCancelled.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      handler: idempotent(db, SCHEDULER_SCHEMA, 'scheduler-account-cancelled', async (message, tx) => {
        const { userId, cancelledAt } = accountCancelled.decode(message.data);
        const removed = await removeUserSchedules(tx, userId, cancelledAt ?? new Date());
        logger.info({ userId, removed }, 'account cancelled: schedules removed');
      }),
    },
  ];
}
