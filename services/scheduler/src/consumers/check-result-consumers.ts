import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { checkCompleted, streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { backoffUntil } from '../domain/backoff.ts';
import { SCHEDULER_SCHEMA } from '../store/migrations.ts';
import { lockCounters, saveCounters } from '../store/schedule-store.ts';

/**
 * Check outcomes: consecutive errors back a site off exponentially, any success resets it.
 * A result older than one already counted (results can arrive out of order) changes nothing.
 */
export function checkResultConsumers(db: Db, logger: Logger, backoffMaxMs: number): CatalogEntry[] {
  const durable = 'scheduler-check-completed';
  return [
    {
      stream: streams.checkResults.name,
      durable,
      subject: checkCompleted.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      concurrency: 16,
      handler: idempotent(db, SCHEDULER_SCHEMA, durable, async (message, tx) => {
        const result = checkCompleted.decode(message.data);
        const dueAt = result.dueAt ?? result.completedAt ?? new Date();
        const counters = await lockCounters(tx, result.targetId);
        if (!counters) return;
        if (counters.lastResultDueAt && counters.lastResultDueAt.getTime() >= dueAt.getTime()) return;
        const failures = result.outcome === 'error' ? counters.failures + 1 : 0;
        const until = backoffUntil(failures, dueAt, counters.intervalMs, backoffMaxMs);
        await saveCounters(tx, result.targetId, { failures, backoffUntil: until, lastResultDueAt: dueAt });
        if (until) logger.info({ targetId: result.targetId, failures, until }, 'failing site backed off');
      }),
    },
  ];
}
