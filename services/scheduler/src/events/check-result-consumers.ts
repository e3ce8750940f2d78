import type { CatalogEntry } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { checkCompleted, streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { backoffUntil } from '../domain/backoff.ts';
import { failuresOf, lockCounters, saveCounters } from '../store/schedule-store.ts';

/**
 * Check outcomes: consecutive errors back a site off exponentially, any success resets it.
 * Results are counted in due-time order: one for a due time already counted — a redelivery, or
 * an older check arriving late — changes nothing. That order is the consumer's idempotency, so
 * results (one per check, the busiest subject here) leave no processed_events row behind.
 */
export function checkResultConsumers(db: Db, logger: Logger, backoffMaxMs: number): CatalogEntry[] {
  return [
    {
      stream: streams.checkResults.name,
      durable: 'scheduler-check-completed',
      subject: checkCompleted.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      concurrency: 16,
      handler: async (message) => {
        const result = checkCompleted.decode(message.data);
        const dueAt = result.dueAt ?? result.completedAt ?? new Date();
        // A success for a site with no failures changes nothing (ADR 0032): told without taking
        // the row's lock, which would itself write the row's header.
        if (result.outcome !== 'error' && (await failuresOf(db, result.targetId)) === 0) return;
        await db.transaction(async (tx) => {
          const counters = await lockCounters(tx, result.targetId);
          if (!counters) return;
          if (counters.lastResultDueAt && counters.lastResultDueAt.getTime() >= dueAt.getTime()) return;
          const failures = result.outcome === 'error' ? counters.failures + 1 : 0;
          // A success while the site works changes nothing the dispatch reads, so it is not written
          // (ADR 0032): the due time counted stays at the last failure's or older, and a failure
          // reported late after such a success counts once, to be reset by the next success.
          if (failures === 0 && counters.failures === 0) return;
          const until = backoffUntil(failures, dueAt, counters.intervalMs, backoffMaxMs);
          await saveCounters(tx, result.targetId, { failures, backoffUntil: until, lastResultDueAt: dueAt });
          if (until) logger.info({ targetId: result.targetId, failures, until }, 'failing site backed off');
        });
      },
    },
  ];
}
