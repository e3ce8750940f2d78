import type { CatalogEntry } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { checkCompleted } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import type { Logger } from '@mimamori/runtime';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import type { NotificationProfileSource } from '../domain/notification-profile.ts';
import { structureHintContent } from '../domain/structure-hint-content.ts';
import { countOutcome, markHinted } from '../store/error-streak-store.ts';
import { loadNotice } from '../store/notice-store.ts';
import { sendClaimed } from './claimed-send.ts';

/**
 * Counts each site's consecutive failed checks; at `hintAfterErrors` in a row the account address
 * gets the structural-change hint, once per streak (a success starts a new one). The hint's
 * delivery is named after the streak, so a redelivered result sends it no second time.
 */
export function checkResultConsumer(deps: {
  db: Db;
  deliveries: DeliveryLedger;
  mail: MailTransport;
  profiles: NotificationProfileSource;
  hintAfterErrors: number;
  logger: Logger;
}): CatalogEntry {
  return {
    stream: checkCompleted.stream,
    durable: 'notifier-checks-completed',
    subject: checkCompleted.subject,
    maxDeliver: 10,
    ackWaitMs: 60_000,
    concurrency: 8,
    async handler(message) {
      const result = checkCompleted.decode(message.data);
      const dueAt = result.dueAt ?? result.completedAt ?? new Date();
      const streak = await countOutcome(deps.db, result.targetId, dueAt, result.outcome === 'error');
      if (streak.errors < deps.hintAfterErrors || streak.hinted || !streak.startedAt) return;
      const notice = await loadNotice(deps.db, result.targetId);
      const profile = notice && notice !== 'deleted' ? await deps.profiles.read(result.userId) : null;
      const to = profile ? [profile.email || profile.verifiedMails[0] || ''].filter(Boolean) : [];
      if (notice && notice !== 'deleted' && profile && to.length > 0) {
        const deliveryId = `structure-hint:${result.targetId}:${streak.startedAt.toISOString()}:email`;
        const sent = await sendClaimed(deps.deliveries, message, deliveryId, 'email', async () => {
          await deps.mail.send({
            to,
            ...structureHintContent({
              lang: profile.lang,
              label: notice.label,
              url: notice.url,
              errors: streak.errors,
              errorCode: result.errorCode,
            }),
          });
          deps.logger.info({ deliveryId, errors: streak.errors }, 'structural-change hint sent');
          return 'sent';
        });
        // Another copy is mailing the hint now; the streak is marked once that copy is done.
        if (sent.retry) {
          message.nak(sent.afterMs ?? undefined);
          return;
        }
      }
      await markHinted(deps.db, result.targetId);
    },
  };
}
