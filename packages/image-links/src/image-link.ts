import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

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

/**
 * What the gateway serves under one link besides the picture as stored: `jpeg`, the picture as a
 * JPEG (every URL-only platform takes JPEG, none is sure to take the WebP the diff service
 * stores; at most 10 MB, LINE's limit for an original), and `preview`, a JPEG of at most 1 MB
 * and 1024 px a side (LINE's preview).
 */
export type ImageLinkVariant = 'jpeg' | 'preview';

/** The URL of a link's JPEG or preview (`/i/<token>?jpeg=1`, `?preview=1`). */
export function imageLinkVariant(url: string, variant: ImageLinkVariant): string {
  const parsed = new URL(url);
  parsed.search = '';
  parsed.searchParams.set(variant, '1');
  return parsed.toString();
}

/**
 * The public URLs of an update's before and after pictures (the blob keys its updates.detected
 * event names), each the JPEG variant, valid for `ttlSeconds` from `nowSeconds`: what the
 * notifier puts in `ChatImage.publicUrl`. Null for a picture the update has not (no key), and
 * both null without a public URL (nothing outside could fetch them).
 */
export function updateImageLinks(
  key: Buffer,
  publicUrl: string,
  update: { targetId: string; beforeBlobKey: string; afterBlobKey: string },
  nowSeconds: number,
  ttlSeconds: number = IMAGE_LINK_TTL_SECONDS,
): { before: string | null; after: string | null } {
  const link = (blobKey: string) =>
    publicUrl && blobKey
      ? imageLinkVariant(
          imageLinkUrl(
            publicUrl,
            signImageLink(key, { targetId: update.targetId, blobKey, expiresAt: nowSeconds + ttlSeconds }),
          ),
          'jpeg',
        )
      : null;
  return { before: link(update.beforeBlobKey), after: link(update.afterBlobKey) };
}

/** The bytes of IMAGE_LINK_KEY (base64 of 32 bytes); throws, naming the variable, when it is not that. */
export function parseImageLinkKey(value: string): Buffer {
  const trimmed = value.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/]{43}=?$/.test(trimmed)) {
    throw new Error('IMAGE_LINK_KEY must be the base64 of 32 random bytes (openssl rand -base64 32)');
  }
  return key;
}

/**
 * The single-process product's image-link key: made on first start and kept (owner-only) in the
 * data folder, so links sent before a restart still serve their pictures after it.
 */
export async function keptImageLinkKey(file: string): Promise<Buffer> {
  const kept = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (kept) return parseImageLinkKey(kept);
  const key = randomBytes(32);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  return key;
}

function mac(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(`mimamori-image-link:${payload}`).digest('base64url');
}
