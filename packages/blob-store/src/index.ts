export { assertBlobKey, InvalidBlobKeyError } from './blob-key.ts';
export type { BlobStore, StoredBlob } from './blob-store.ts';
export { contentTypeForKey } from './content-type.ts';
export { createFileBlobStore } from './file-blob-store.ts';
export { createJetStreamBlobStore, type JetStreamBlobStoreOptions } from './jetstream-blob-store.ts';
export { openBlobStore } from './open-blob-store.ts';
