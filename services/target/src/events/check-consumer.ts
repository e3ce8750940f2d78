import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { checkCompleted, streams } from '@mimamori/events';
import { isTargetId } from '../domain/target-id.ts';
import { TARGET_SCHEMA } from '../store/migrations.ts';
import type { TargetStore } from '../store/target-store.ts';

/**
 * The site list's 'checked', 'updated', NEW and failing state follow the diff service's check
 * results.
 */
export function checkConsumer(db: Db, targets: TargetStore): CatalogEntry {
  return {
    stream: streams.checkResults.name,
    durable: 'target-check-completed',
    subject: checkCompleted.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    concurrency: 8,
    handler: idempotent(db, TARGET_SCHEMA, 'target-check-completed', async (message, tx) => {
      const check = checkCompleted.decode(message.data);
      if (!isTargetId(check.targetId) || !check.completedAt) return;
      await targets.recordCheck(tx, {
        targetId: check.targetId,
        userId: check.userId,
        dueAt: check.dueAt ?? check.completedAt,
        completedAt: check.completedAt,
        outcome: check.outcome,
        errorCode: check.errorCode,
        errorDetail: check.errorDetail,
        errorAreaId: check.errorAreaId,
      });
    }),
  };
}
