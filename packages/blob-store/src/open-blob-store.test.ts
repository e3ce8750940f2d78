import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openBlobStore } from './open-blob-store.ts';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

describe('openBlobStore', () => {
  it('opens the same file store from file:<folder> and file:///<folder>', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mimamori-blobs-'));
    roots.push(root);
    await (await openBlobStore(`file:${root}`)).put('a/b.png', Uint8Array.of(5));

    const again = await openBlobStore(pathToFileURL(root).href);
    expect(await again.get('a/b.png')).toEqual({ data: Uint8Array.of(5), contentType: 'image/png' });
  });

  it('refuses an unknown scheme without echoing the credentials in the URL', async () => {
    const failure = openBlobStore('s3://key:very-secret@bucket.example/blobs');
    await expect(failure).rejects.toThrow(/file: or nats:\/\//);
    await expect(failure).rejects.not.toThrow(/very-secret/);
  });

  it('refuses a nats URL without a bucket', async () => {
    await expect(openBlobStore('nats://127.0.0.1:4222')).rejects.toThrow(/needs a bucket/);
  });
});
