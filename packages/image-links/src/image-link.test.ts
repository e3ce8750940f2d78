import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  IMAGE_LINK_TTL_SECONDS,
  imageLinkUrl,
  imageLinkVariant,
  keptImageLinkKey,
  parseImageLinkKey,
  signImageLink,
  updateImageLinks,
  verifyImageLink,
} from './image-link.ts';

const key = Buffer.alloc(32, 7);
const claims = { targetId: 't-1', blobKey: 'screenshots/t-1/2026-12-06/u-1-after.png', expiresAt: 2_000 };

describe('image links', () => {
  it('verifies its own token until it expires', () => {
    const token = signImageLink(key, claims);
    expect(verifyImageLink(key, token, 1_999)).toEqual(claims);
    expect(verifyImageLink(key, token, 2_000)).toBeNull();
  });

  it('refuses a token signed with another key, altered, or malformed', () => {
    const token = signImageLink(key, claims);
    expect(verifyImageLink(Buffer.alloc(32, 8), token, 0)).toBeNull();
    const [payload, signature] = token.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify(['t-2', claims.blobKey, claims.expiresAt])).toString(
      'base64url',
    );
    expect(verifyImageLink(key, `${other}.${signature}`, 0)).toBeNull();
    expect(verifyImageLink(key, `${payload}.${signature}x`, 0)).toBeNull();
    expect(verifyImageLink(key, `${payload}`, 0)).toBeNull();
    expect(verifyImageLink(key, `${token}.more`, 0)).toBeNull();
  });

  it('puts the token under the public URL', () => {
    expect(imageLinkUrl('https://mimamori.example/', 'abc.def')).toBe('https://mimamori.example/i/abc.def');
  });

  it('names the JPEG and the preview of a link', () => {
    const url = 'https://mimamori.example/i/abc.def?jpeg=1';
    expect(imageLinkVariant(url, 'preview')).toBe('https://mimamori.example/i/abc.def?preview=1');
    expect(imageLinkVariant(url, 'jpeg')).toBe(url);
  });

  it("signs an update's before and after pictures for the link's lifetime", () => {
    const links = updateImageLinks(
      key,
      'https://mimamori.example/',
      { targetId: 't-1', beforeBlobKey: '', afterBlobKey: 'updates/t-1/u-1/after.webp' },
      1_000,
    );
    expect(links.before).toBeNull();
    const after = new URL(links.after ?? '');
    expect([after.origin, after.searchParams.get('jpeg')]).toEqual(['https://mimamori.example', '1']);
    expect(verifyImageLink(key, after.pathname.slice('/i/'.length), 1_000)).toEqual({
      targetId: 't-1',
      blobKey: 'updates/t-1/u-1/after.webp',
      expiresAt: 1_000 + IMAGE_LINK_TTL_SECONDS,
    });
    const offline = updateImageLinks(key, '', { targetId: 't', beforeBlobKey: 'b', afterBlobKey: 'a' }, 0);
    expect(offline).toEqual({ before: null, after: null });
  });
});

describe('the image-link key', () => {
  it('takes only the base64 of 32 bytes', () => {
    expect(parseImageLinkKey(Buffer.alloc(32, 1).toString('base64')).equals(Buffer.alloc(32, 1))).toBe(true);
    for (const bad of ['', 'short', Buffer.alloc(31).toString('base64'), Buffer.alloc(48).toString('base64')])
      expect(() => parseImageLinkKey(bad)).toThrow(/IMAGE_LINK_KEY/);
  });

  it('is made once in the data folder, readable by its owner only, and kept across starts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'image-link-key-'));
    try {
      const file = join(dir, 'nested', 'image-link-key');
      const first = await keptImageLinkKey(file);
      expect(first).toHaveLength(32);
      expect((await keptImageLinkKey(file)).equals(first)).toBe(true);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
