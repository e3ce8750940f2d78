import type { BlobStore } from '@mimamori/blob-store';

/**
 * A blob store opened on first use: most checks never write a blob (small areas travel in
 * the event, screenshots are rare), so a crawler does not create a bucket until it needs one.
 */
export function lazyBlobStore(open: () => Promise<BlobStore>): BlobStore {
  let opened: Promise<BlobStore> | undefined;
  const store = () => {
    opened ??= open().catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };
  return {
    put: async (key, data, meta) => (await store()).put(key, data, meta),
    get: async (key) => (await store()).get(key),
    delete: async (key) => (await store()).delete(key),
    exists: async (key) => (await store()).exists(key),
    size: async (key) => (await store()).size(key),
    async close() {
      if (opened) await (await opened.catch(() => undefined))?.close();
    },
  };
}
