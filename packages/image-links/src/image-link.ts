import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Public, unguessable, expiring addresses for an update's pictures, for the chat platforms that
 * take images only as HTTPS URLs (LINE, Teams; docs/channels.md#images). The token carries the
 * site, the blob and the expiry, signed with the product's image-link key; the gateway serves
 * `/i/<token>` only while the signature holds, the expiry is ahead and the blob still exists
 * (a deleted site's blobs are deleted, so its links die with it).
 */
export interface ImageLinkClaims {
  targetId: string;
  blobKey: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export const IMAGE_LINK_PATH = '/i/';
/** How long a link serves its picture: platforms fetch again when a message is opened later. */
export const IMAGE_LINK_TTL_SECONDS = 30 * 24 * 60 * 60;

export function signImageLink(key: Buffer, claims: ImageLinkClaims): string {
  const payload = Buffer.from(JSON.stringify([claims.targetId, claims.blobKey, claims.expiresAt])).toString(
    'base64url',
  );
  return `${payload}.${mac(key, payload)}`;
}

/** The claims of a token this key signed that has not expired at `nowSeconds`; null otherwise. */
export function verifyImageLink(key: Buffer, token: string, nowSeconds: number): ImageLinkClaims | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return null;
  const [targetId, blobKey, expiresAt] = parsed as unknown[];
  if (typeof targetId !== 'string' || typeof blobKey !== 'string' || typeof expiresAt !== 'number')
    return null;
  if (expiresAt <= nowSeconds) return null;
  return { targetId, blobKey, expiresAt };
}

/** The public URL of a signed token under the product's PUBLIC_URL. */
export function imageLinkUrl(publicUrl: string, token: string): string {
  return new URL(`${IMAGE_LINK_PATH}${token}`, publicUrl).toString();
}

function mac(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(`mimamori-image-link:${payload}`).digest('base64url');
}
