import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidBlobKeyError } from './blob-key.ts';
import type { BlobStore } from './blob-store.ts';

/** The behaviour every BlobStore adapter owes its callers; each adapter's test runs it. */
export function blobStoreContract(
  open: () => Promise<BlobStore>,
  cleanUp: () => Promise<void> = async () => {},
) {
  describe('BlobStore contract', () => {
    let store: BlobStore;

    beforeAll(async () => {
      store = await open();
    });

    afterAll(async () => {
      await store?.close();
      await cleanUp();
    });

    it('gives back a 3 MB binary byte for byte, with its content type', async () => {
      const data = new Uint8Array(randomBytes(3 * 1024 * 1024));
      await store.put('screenshots/t-1/c-1.webp', data, { contentType: 'image/webp' });

      const blob = await store.get('screenshots/t-1/c-1.webp');
      expect(blob?.contentType).toBe('image/webp');
      expect(blob?.data.length).toBe(data.length);
      expect(Buffer.from(blob?.data ?? []).equals(Buffer.from(data))).toBe(true);
      expect(await store.exists('screenshots/t-1/c-1.webp')).toBe(true);
      expect(await store.size('screenshots/t-1/c-1.webp')).toBe(data.length);
    });

    it('derives the content type from the extension when none was given', async () => {
      await store.put('snapshots/t-1/c-2.html', new TextEncoder().encode('<p>価格 1,200円</p>'));

      const blob = await store.get('snapshots/t-1/c-2.html');
      expect(blob?.contentType).toBe('text/html; charset=utf-8');
      expect(new TextDecoder().decode(blob?.data)).toBe('<p>価格 1,200円</p>');
    });

    it('replaces a blob on overwrite, bytes and content type', async () => {
      await store.put('screenshots/t-2/c-1.png', new Uint8Array(200_000).fill(1), {
        contentType: 'image/x-first',
      });
      await store.put('screenshots/t-2/c-1.png', Uint8Array.of(7, 8, 9));

      const blob = await store.get('screenshots/t-2/c-1.png');
      expect(blob).toEqual({ data: Uint8Array.of(7, 8, 9), contentType: 'image/png' });
    });

    it('answers null for a key never stored', async () => {
      expect(await store.get('screenshots/nobody/none.webp')).toBeNull();
      expect(await store.exists('screenshots/nobody/none.webp')).toBe(false);
      expect(await store.size('screenshots/nobody/none.webp')).toBeNull();
    });

    it('deletes a blob, and deleting a missing one is not an error', async () => {
      await store.put('screenshots/t-3/c-1.webp', Uint8Array.of(1, 2, 3));
      await store.delete('screenshots/t-3/c-1.webp');

      expect(await store.get('screenshots/t-3/c-1.webp')).toBeNull();
      expect(await store.exists('screenshots/t-3/c-1.webp')).toBe(false);
      expect(await store.size('screenshots/t-3/c-1.webp')).toBeNull();
      await expect(store.delete('screenshots/t-3/c-1.webp')).resolves.toBeUndefined();
    });

    it('keeps keys that share a prefix apart', async () => {
      await store.put('screenshots/t-4/c-1.webp', Uint8Array.of(1));
      await store.put('screenshots/t-4/c-1.webp.bak', Uint8Array.of(2));
      await store.delete('screenshots/t-4/c-1.webp');

      expect((await store.get('screenshots/t-4/c-1.webp.bak'))?.data).toEqual(Uint8Array.of(2));
    });

    it.each([
      ['empty', ''],
      ['parent segment', 'screenshots/../secrets'],
      ['leading parent', '../outside.webp'],
      ['absolute path', '/etc/passwd'],
      ['empty segment', 'screenshots//c-1.webp'],
      ['trailing slash', 'screenshots/'],
      ['hidden segment', 'screenshots/.tmp/c-1.webp'],
      ['space', 'screenshots/a b.webp'],
      ['backslash', 'screenshots\\c-1.webp'],
      ['non-ASCII', 'スクリーンショット.webp'],
    ])('refuses a key with %s', async (_problem, key) => {
      await expect(store.put(key, Uint8Array.of(1))).rejects.toThrow(InvalidBlobKeyError);
      await expect(store.get(key)).rejects.toThrow(InvalidBlobKeyError);
      await expect(store.exists(key)).rejects.toThrow(InvalidBlobKeyError);
      await expect(store.delete(key)).rejects.toThrow(/invalid blob key/);
    });
  });
}
