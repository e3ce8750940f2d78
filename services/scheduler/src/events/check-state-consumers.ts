import type { CatalogEntry } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { snapshotCaptured, streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { keepCheckState } from '../store/schedule-store.ts';

/**
 * What a check leaves for the next ones (ADR 0016): the sign-in session the crawler kept, so
 * the next check starts signed in and the login is replayed only once the site lets it lapse;
 * and the digest of the areas it read, so a check that reads them the same takes no
 * screenshot; and what a browser check's full render kept for asking the page's requests again
 * before rendering (ADR 0031). Kept in the order of the checks' due times, which makes a redelivery or a late
 * older snapshot change nothing, so no processed_events row is needed. The sealed session is
 * stored and sent as it came; nothing here can open it.
 */
export function checkStateConsumers(db: Db, logger: Logger): CatalogEntry[] {
  return [
    {
      stream: streams.snapshots.name,
      durable: 'scheduler-check-state-kept',
      subject: snapshotCaptured.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      concurrency: 16,
      handler: async (message) => {
        const snapshot = snapshotCaptured.decode(message.data);
        if (snapshot.error || !snapshot.dueAt) return;
        if (!snapshot.sealedSessionState && !snapshot.areasDigest && !snapshot.sealedRevalidationState)
          return;
        const kept = await keepCheckState(db, {
          targetId: snapshot.targetId,
          sealedSessionState: snapshot.sealedSessionState,
          areasDigest: snapshot.areasDigest,
          sealedRevalidationState: snapshot.sealedRevalidationState,
          checkDueAt: snapshot.dueAt,
        });
        logger.debug({ targetId: snapshot.targetId, kept }, 'check state kept');
      },
    },
  ];
}
