import type { CatalogEntry } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { snapshotCaptured, streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { keepSession } from '../store/schedule-store.ts';

/**
 * Sign-in sessions kept between checks (ADR 0016): a snapshot that carries the session its
 * check ended with replaces the site's kept one, so the next check starts signed in and the
 * crawler replays the login only once the site lets the session lapse. Keeping is ordered by
 * the check's due time, which makes a redelivery or a late older snapshot change nothing, so
 * no processed_events row is needed. The sealed value is stored and sent as it came; nothing
 * here can open it.
 */
export function sessionConsumers(db: Db, logger: Logger): CatalogEntry[] {
  return [
    {
      stream: streams.snapshots.name,
      durable: 'scheduler-session-kept',
      subject: snapshotCaptured.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      concurrency: 16,
      handler: async (message) => {
        const snapshot = snapshotCaptured.decode(message.data);
        if (!snapshot.sealedSessionState || !snapshot.dueAt) return;
        const kept = await keepSession(db, {
          targetId: snapshot.targetId,
          sealedSessionState: snapshot.sealedSessionState,
          checkDueAt: snapshot.dueAt,
        });
        logger.debug({ targetId: snapshot.targetId, kept }, 'session kept from a check');
      },
    },
  ];
}
