import { type ObjectStore, Objm } from '@nats-io/obj';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { assertBlobKey } from './blob-key.ts';
import type { BlobStore } from './blob-store.ts';
import { contentTypeForKey } from './content-type.ts';

export interface JetStreamBlobStoreOptions {
  /** NATS server addresses (`host:port` or `nats://host:port`). */
  servers: string | string[];
  /** Object store bucket; created when missing. Letters, digits, `-` and `_`. */
  bucket: string;
  user?: string;
  pass?: string;
}

const CONTENT_TYPE = 'content-type';

/**
 * Blobs in a NATS JetStream object store, so every crawler and notifier replica sees the
 * same screenshots without a shared disk. Objects are chunked by the client; a put only
 * becomes visible when its metadata is written after the last chunk, so readers never see
 * a partial blob.
 */
export async function createJetStreamBlobStore(options: JetStreamBlobStoreOptions): Promise<BlobStore> {
  const nc = await connect({
    servers: options.servers,
    name: 'mimamori-blob-store',
    // As the event bus: never give up reconnecting after a NATS restart (10 tries by default).
    maxReconnectAttempts: -1,
    ...(options.user ? { user: options.user, pass: options.pass ?? '' } : {}),
  });
  let store: ObjectStore;
  try {
    store = await new Objm(nc).create(options.bucket);
  } catch (error) {
    await nc.close();
    throw error;
  }
  return jetStreamBlobStore(nc, store);
}

function jetStreamBlobStore(nc: NatsConnection, store: ObjectStore): BlobStore {
  return {
    async put(key, data, meta) {
      assertBlobKey(key);
      await store.putBlob(
        { name: key, ...(meta?.contentType ? { metadata: { [CONTENT_TYPE]: meta.contentType } } : {}) },
        data,
      );
    },

    async get(key) {
      assertBlobKey(key);
      const result = await store.get(key);
      if (!result) return null;
      const data = await readAll(result.data);
      const failure = await result.error;
      if (failure) throw failure;
      const contentType = result.info.metadata?.[CONTENT_TYPE] ?? contentTypeForKey(key);
      return contentType ? { data, contentType } : { data };
    },

    async delete(key) {
      assertBlobKey(key);
      const info = await store.info(key);
      if (info && !info.deleted) await store.delete(key);
    },

    async exists(key) {
      assertBlobKey(key);
      const info = await store.info(key);
      return info !== null && !info.deleted;
    },

    async size(key) {
      assertBlobKey(key);
      const info = await store.info(key);
      return info && !info.deleted ? info.size : null;
    },

    async close() {
      await nc.drain();
    },
  };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    length += chunk.length;
  }
  const data = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    data.set(chunk, offset);
    offset += chunk.length;
  }
  return data;
}
