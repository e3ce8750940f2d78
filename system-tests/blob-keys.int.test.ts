import { randomBytes } from 'node:crypto';
import { openBlobStore } from '@mimamori/blob-store';
import { createJetStreamBus } from '@mimamori/bus';
import { blobKeys, testNatsUrl } from '@mimamori/test-fixtures';
import { describe, expect, it } from 'vitest';

// The fixture the pipeline test reads the blob store with, against the store the services use.
describe('blobKeys', () => {
  it('names the blobs a bucket holds, without the deleted ones', async () => {
    const bucket = `keys_${randomBytes(4).toString('hex')}`;
    const store = await openBlobStore(`${testNatsUrl()}/${bucket}`);
    try {
      await store.put('screenshots/t-1/a.webp', new Uint8Array([1]));
      await store.put('screenshots/t-1/b.webp', new Uint8Array([2]));
      await store.put('snapshots/t-2/c.txt', new Uint8Array([3]));
      await store.delete('screenshots/t-1/b.webp');
      expect(await blobKeys(testNatsUrl(), bucket)).toEqual([
        'screenshots/t-1/a.webp',
        'snapshots/t-2/c.txt',
      ]);
    } finally {
      await store.close();
      const bus = await createJetStreamBus({ servers: testNatsUrl() });
      await bus.deleteStream(`OBJ_${bucket}`);
      await bus.close();
    }
  });
});
