import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountCancelled, accountHeld, planChanged, streams, trialEnded } from '@mimamori/events';
import { historyLimits } from '@mimamori/plans';
import type { Logger } from '@mimamori/runtime';
import { deleteAllForCancel, moveToPlanHistory, pauseAllForHold } from '../domain/account-hold.ts';
import { TARGET_SCHEMA } from '../store/migrations.ts';
import type { TargetStore } from '../store/target-store.ts';

/**
 * The account events the target service acts on: a trial that ended without a card, or billing's
 * hold (accounts.held: a renewal unpaid past its deadline, a paused or ended subscription), stops the
 * account's monitoring; a cancelled account's sites go. Lifting a hold needs nothing here: sites
 * stay paused until the user resumes them. A plan change moves every site to the plan's history
 * limits. Each runs once per
 * event id (processed_events), in the transaction that changes the sites and writes their events.
 */
export function accountConsumers(db: Db, targets: TargetStore, logger: Logger): CatalogEntry[] {
  return [
    {
      stream: streams.accounts.name,
      durable: 'target-trial-ended',
      subject: trialEnded.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      handler: idempotent(db, TARGET_SCHEMA, 'target-trial-ended', async (message, tx) => {
        const { userId } = trialEnded.decode(message.data);
        const paused = await pauseAllForHold(await targets.within(tx, userId));
        logger.info({ userId, paused }, 'account on hold: monitoring paused');
      }),
    },
    {
      stream: streams.accounts.name,
      durable: 'target-account-cancelled',
      subject: accountCancelled.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      handler: idempotent(db, TARGET_SCHEMA, 'target-account-cancelled', async (message, tx) => {
        const { userId } = accountCancelled.decode(message.data);
        const deleted = await deleteAllForCancel(await targets.within(tx, userId));
        logger.info({ userId, deleted }, 'account cancelled: sites deleted');
      }),
    },
    {
      stream: streams.accounts.name,
      durable: 'target-account-held',
      subject: accountHeld.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      handler: idempotent(db, TARGET_SCHEMA, 'target-account-held', async (message, tx) => {
        const { userId, reason } = accountHeld.decode(message.data);
        const paused = await pauseAllForHold(await targets.within(tx, userId));
        logger.info({ userId, reason, paused }, 'account on hold: monitoring paused');
      }),
    },
    {
      stream: streams.accounts.name,
      durable: 'target-plan-changed',
      subject: planChanged.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      handler: idempotent(db, TARGET_SCHEMA, 'target-plan-changed', async (message, tx) => {
        const { userId, plan } = planChanged.decode(message.data);
        const moved = await moveToPlanHistory(await targets.within(tx, userId), historyLimits(plan));
        logger.info({ userId, plan, moved }, 'plan changed: sites moved to its history limits');
      }),
    },
  ];
}
