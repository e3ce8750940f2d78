import { testNatsUrl, uniqueName } from '@mimamori/test-fixtures';
import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { blobStoreContract } from './blob-store-contract.ts';
import { openBlobStore } from './open-blob-store.ts';

const bucket = uniqueName('blobs');

async function bucketExists(name: string): Promise<boolean> {
  const nc = await connect({ servers: new URL(testNatsUrl()).host });
  try {
    const stores: string[] = [];
    for await (const status of new Objm(nc).list()) stores.push(status.bucket);
    return stores.includes(name);
  } finally {
    await nc.close();
  }
}

async function destroyBucket(name: string) {
  const nc = await connect({ servers: new URL(testNatsUrl()).host });
  try {
    await (await new Objm(nc).open(name)).destroy();
  } finally {
    await nc.close();
  }
}

describe('JetStream blob store', () => {
  blobStoreContract(
    () => openBlobStore(`${testNatsUrl()}/${bucket}`),
    () => destroyBucket(bucket),
  );

  it('creates its bucket on the server and shares blobs between connections', async () => {
    const name = uniqueName('blobs');
    const writer = await openBlobStore(`${testNatsUrl()}/${name}`);
    const reader = await openBlobStore(`${testNatsUrl()}/${name}`);
    try {
      expect(await bucketExists(name)).toBe(true);
      await writer.put('screenshots/t-1/c-1.webp', Uint8Array.of(4, 2));
      expect(await reader.get('screenshots/t-1/c-1.webp')).toEqual({
        data: Uint8Array.of(4, 2),
        contentType: 'image/webp',
      });
    } finally {
      await writer.close();
      await reader.close();
      await destroyBucket(name);
    }
  });
});
