import { describe, expect, it } from 'vitest';
import { imageLinkUrl, signImageLink, verifyImageLink } from './image-link.ts';

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
});
