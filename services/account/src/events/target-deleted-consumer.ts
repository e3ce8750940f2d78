import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { streams, targetDeleted } from '@mimamori/events';
import { deleteSiteChatLinks } from '../store/chat-link-store.ts';
import { ACCOUNT_SCHEMA } from '../store/migrations.ts';
import { deleteSiteWebhooks } from '../store/webhook-store.ts';

/**
 * A deleted site's own webhooks and chat links go with it (targets.deleted): they would never fire
 * again, and no screen would show them to delete them (docs/product.md#webhooks, #chat-links).
 * The site's id is kept with its user, for the purge of a deleted account to name (other
 * services keep tombstones by site id).
 */
export function targetDeletedConsumer(db: Db): CatalogEntry {
  return {
    stream: streams.targets.name,
    durable: 'account-target-deleted',
    subject: targetDeleted.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    handler: idempotent(db, ACCOUNT_SCHEMA, 'account-target-deleted', async (message, tx) => {
      const event = targetDeleted.decode(message.data);
      await deleteSiteWebhooks(tx, event.userId, event.targetId);
      await deleteSiteChatLinks(tx, event.userId, event.targetId);
      await tx.query(
        `INSERT INTO ${ACCOUNT_SCHEMA}.gone_targets (user_id, target_id)
         SELECT id, $2 FROM ${ACCOUNT_SCHEMA}.users WHERE id::text = $1 ON CONFLICT DO NOTHING`,
        [event.userId, event.targetId],
      );
    }),
  };
}
