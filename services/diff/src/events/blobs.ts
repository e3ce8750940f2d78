import type { BlobStore } from '@mimamori/blob-store';
import type { Logger } from '@mimamori/runtime';

/**
 * Deletes blobs nothing refers to any more; called only after the transaction that stopped
 * referring to them committed. A blob that stays behind costs space, not correctness.
 */
export async function deleteBlobs(blobs: BlobStore, logger: Logger, keys: readonly string[]): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      blobs.delete(key).catch((error: unknown) => logger.warn({ err: error, key }, 'blob not deleted')),
    ),
  );
}
