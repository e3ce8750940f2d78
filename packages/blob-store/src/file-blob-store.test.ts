import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobStoreContract } from './blob-store-contract.ts';
import { createFileBlobStore } from './file-blob-store.ts';

const roots: string[] = [];

async function freshRoot() {
  const root = await mkdtemp(join(tmpdir(), 'mimamori-blobs-'));
  roots.push(root);
  return root;
}

afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

describe('file blob store', () => {
  blobStoreContract(async () => createFileBlobStore(await freshRoot()));

  it('stores a blob at its key path and leaves no temporary file behind', async () => {
    const root = await freshRoot();
    const store = await createFileBlobStore(root);
    await store.put('screenshots/t-1/c-1.webp', Uint8Array.of(1, 2, 3), { contentType: 'image/webp' });

    expect(await readdir(join(root, 'screenshots/t-1'))).toEqual(['c-1.webp']);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });

  it('takes away the folders a delete left empty, which name a site, and keeps the rest', async () => {
    const root = await freshRoot();
    const store = await createFileBlobStore(root);
    await store.put('screenshots/t-1/c-1/page.webp', Uint8Array.of(1), { contentType: 'image/webp' });
    await store.put('screenshots/t-2/c-1/page.webp', Uint8Array.of(2));
    await store.delete('screenshots/t-1/c-1/page.webp');
    expect(await readdir(join(root, 'screenshots'))).toEqual(['t-2']);
    expect(await readdir(join(root, '.types'))).toEqual([]);
    await store.delete('screenshots/t-2/c-1/page.webp');
    expect((await readdir(root)).sort()).toEqual(['.tmp', '.types']);
    // A folder a delete took away is made again by the next put.
    await store.put('screenshots/t-2/c-2/page.webp', Uint8Array.of(3));
    expect(await store.exists('screenshots/t-2/c-2/page.webp')).toBe(true);
  });

  it('keeps the content type across a reopen', async () => {
    const root = await freshRoot();
    await (await createFileBlobStore(root)).put('snapshots/t-1/c-1.bin', Uint8Array.of(1), {
      contentType: 'application/x-snapshot',
    });

    const reopened = await createFileBlobStore(root);
    expect((await reopened.get('snapshots/t-1/c-1.bin'))?.contentType).toBe('application/x-snapshot');
  });
});
