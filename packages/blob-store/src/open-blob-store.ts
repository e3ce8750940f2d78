import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlobStore } from './blob-store.ts';
import { createFileBlobStore } from './file-blob-store.ts';
import { createJetStreamBlobStore } from './jetstream-blob-store.ts';

/**
 * `file:<folder>` (or `file:///abs/folder`) keeps blobs on this machine; `nats://host:port/<bucket>`
 * (credentials optional, `nats://user:pass@host:port/<bucket>`) keeps them in a JetStream object store.
 */
export async function openBlobStore(url: string): Promise<BlobStore> {
  if (url.startsWith('file://')) return createFileBlobStore(fileURLToPath(url));
  if (url.startsWith('file:')) return createFileBlobStore(resolve(url.slice('file:'.length)));
  if (url.startsWith('nats://')) return createJetStreamBlobStore(jetStreamOptions(url));
  // Only the scheme: the rest may carry credentials.
  throw new Error(`BLOB_URL must start with file: or nats:// (got ${url.split(':')[0]}:)`);
}

function jetStreamOptions(url: string) {
  const parsed = new URL(url);
  const bucket = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, ''));
  if (!bucket) throw new Error('BLOB_URL nats://host:port/<bucket> needs a bucket name');
  return {
    servers: `${parsed.hostname}:${parsed.port || '4222'}`,
    bucket,
    ...(parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : {}),
  };
}
