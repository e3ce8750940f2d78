import type { CatalogEntry } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { checkStateKept, streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { keepCheckState } from '../store/schedule-store.ts';

/**
 * What a check leaves for the next ones (ADR 0016): the sign-in session the crawler kept, so
 * the next check starts signed in and the login is replayed only once the site lets it lapse;
 * and the digest of the areas it read, so a check that reads them the same takes no
 * screenshot; and what a browser check's full render kept for asking the page's requests again
 * before rendering (ADR 0031). The crawler tells it only when a check leaves something new
 * (ADR 0037). Kept in the order of the checks' due times, which makes a redelivery or a late
 * older state change nothing, so no processed_events row is needed. The sealed session is
 * stored and sent as it came; nothing here can open it.
 */
export function checkStateConsumers(db: Db, logger: Logger): CatalogEntry[] {
  return [
    {
      stream: streams.snapshots.name,
      durable: 'scheduler-check-state',
      subject: checkStateKept.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      concurrency: 16,
      handler: async (message) => {
        const state = checkStateKept.decode(message.data);
        if (!state.dueAt) return;
        const kept = await keepCheckState(db, {
          targetId: state.targetId,
          sealedSessionState: state.sealedSessionState,
          areasDigest: state.areasDigest,
          sealedRevalidationState: state.sealedRevalidationState,
          checkDueAt: state.dueAt,
        });
        logger.debug({ targetId: state.targetId, kept }, 'check state kept');
      },
    },
  ];
}
