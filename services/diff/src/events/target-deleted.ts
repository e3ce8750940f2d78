import type { BlobStore } from '@mimamori/blob-store';
import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { streams, targetDeleted } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { DIFF_SCHEMA } from '../store/migrations.ts';
import { forgetTarget } from '../store/result-store.ts';
import { deleteBlobs } from './blobs.ts';

/**
 * A deleted site's versions, results, updates and blobs go, and the site is remembered as
 * deleted so a check of it still under way is not recorded afterwards.
 */
export function targetDeletedEntry(db: Db, deps: { blobs: BlobStore; logger: Logger }): CatalogEntry {
  const durable = 'diff-targets-deleted';
  return {
    stream: streams.targets.name,
    durable,
    subject: targetDeleted.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    handler: async (message) => {
      let keys: string[] = [];
      await idempotent(db, DIFF_SCHEMA, durable, async (_message, tx) => {
        const { targetId } = targetDeleted.decode(message.data);
        // Waits for a check of the site being judged right now, so nothing is recorded after this.
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [targetId]);
        keys = await forgetTarget(tx, targetId);
      })(message);
      await deleteBlobs(deps.blobs, deps.logger, keys);
    },
  };
}
