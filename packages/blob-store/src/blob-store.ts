/** A stored blob: its bytes and, when known, what they are. */
export interface StoredBlob {
  data: Uint8Array;
  contentType?: string;
}

/**
 * Where screenshots and page snapshots live, by key (`screenshots/<target>/<check>.webp`).
 * A put replaces what the key held; readers never see a half-written blob.
 */
export interface BlobStore {
  put(key: string, data: Uint8Array, meta?: { contentType?: string }): Promise<void>;
  /** The blob under `key`, or null when there is none. */
  get(key: string): Promise<StoredBlob | null>;
  /** Removes the blob; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The blob's size in bytes, or null when there is none (storage used, docs/product.md#history). */
  size(key: string): Promise<number | null>;
  close(): Promise<void>;
}
