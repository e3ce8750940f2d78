import type { CatalogEntry } from '@mimamori/bus';
import { checkCompleted, streams } from '@mimamori/events';
import { isTargetId } from '../domain/target-id.ts';
import type { TargetStore } from '../store/target-store.ts';

/**
 * The site list's 'checked', 'updated', NEW and failing state follow the diff service's check
 * results. Each is written so that applying a result twice changes nothing (times only move
 * forward, failures are counted in due-time order), so no processed_events row is written for a
 * result: the checks' busiest subject would otherwise write one per check (ADR 0032).
 */
export function checkConsumer(targets: TargetStore): CatalogEntry {
  return {
    stream: streams.checkResults.name,
    durable: 'target-check-completed',
    subject: checkCompleted.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    concurrency: 8,
    handler: async (message) => {
      const check = checkCompleted.decode(message.data);
      if (!isTargetId(check.targetId) || !check.completedAt) return;
      const completedAt = check.completedAt;
      await targets.recordCheck({
        targetId: check.targetId,
        userId: check.userId,
        dueAt: check.dueAt ?? completedAt,
        completedAt,
        outcome: check.outcome,
        errorCode: check.errorCode,
        errorDetail: check.errorDetail,
        errorAreaId: check.errorAreaId,
      });
    },
  };
}
