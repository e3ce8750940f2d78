import { createHash } from 'node:crypto';
import { type BlobStore, contentTypeForKey } from '@mimamori/blob-store';
import { IMAGE_LINK_PATH, verifyImageLink } from '@mimamori/image-links';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { Allowance } from './allowance.ts';
import { sendApiError } from './api-error.ts';

export interface ImageLinkRouteDeps {
  /** IMAGE_LINK_KEY: the key the notifier signs the links with. */
  key: Buffer;
  blobs: BlobStore;
  allowance: Allowance;
  /** Seconds since the epoch; injected so tests can pass a link's expiry. */
  nowSeconds?: () => number;
}

/** How long a platform's servers may keep a fetched picture, at most; never past the link's expiry. */
const MAX_CACHE_SECONDS = 3_600;
/** LINE's limits: an original of at most 10 MB, a preview of at most 1 MB. */
const JPEG_BYTES = 10 * 1024 * 1024;
const PREVIEW_BYTES = 1024 * 1024;

/**
 * The public picture links (docs/channels.md#images): `GET /i/<token>` serves an update's picture
 * to whoever holds the link, with no session or cookie, because a chat platform's servers fetch it
 * (LINE, Teams). The token is signed with IMAGE_LINK_KEY, names the blob and expires; a forged,
 * altered or expired token and a blob already gone (the site was deleted) all answer the same
 * 404. `?jpeg=1` serves the picture as a JPEG, `?preview=1` as a JPEG of at most 1 MB.
 */
export function imageLinkRoutes(app: FastifyInstance, deps: ImageLinkRouteDeps): void {
  const nowSeconds = deps.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  app.get<{ Params: { token: string }; Querystring: { jpeg?: string; preview?: string } }>(
    `${IMAGE_LINK_PATH}:token`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { token } = request.params;
      // Per link, as feeds are per token: a platform fetches a picture a few times, never thousands.
      if (!deps.allowance.take(createHash('sha256').update(token).digest('base64url'))) {
        reply.header('retry-after', String(Math.ceil(1 / deps.allowance.perSecond)));
        return sendApiError(reply, 429, 'rate_limited');
      }
      const now = nowSeconds();
      const claims = verifyImageLink(deps.key, token, now);
      const blob = claims ? await deps.blobs.get(claims.blobKey) : null;
      if (!claims || !blob) return sendApiError(reply, 404, 'not_found');
      const picture =
        request.query.preview === '1'
          ? await jpegWithin(blob.data, PREVIEW_BYTES, 1_024)
          : request.query.jpeg === '1'
            ? await jpegWithin(blob.data, JPEG_BYTES, null)
            : {
                data: Buffer.from(blob.data),
                type: blob.contentType ?? contentTypeForKey(claims.blobKey) ?? 'application/octet-stream',
              };
      return reply
        .header(
          'cache-control',
          `private, max-age=${Math.max(0, Math.min(MAX_CACHE_SECONDS, claims.expiresAt - now))}`,
        )
        .header('x-content-type-options', 'nosniff')
        .type(picture.type)
        .send(picture.data);
    },
  );
}

/**
 * The picture as a JPEG of at most `maxBytes`, no side over `maxSide` px when given: smaller and
 * plainer each try, so even a tall, busy page fits.
 */
async function jpegWithin(
  data: Uint8Array,
  maxBytes: number,
  maxSide: number | null,
): Promise<{ data: Buffer; type: string }> {
  const tries = [
    { side: maxSide, quality: 85 },
    { side: maxSide ?? 4_096, quality: 75 },
    { side: 1_024, quality: 60 },
    { side: 512, quality: 50 },
  ];
  let jpeg = Buffer.alloc(0);
  for (const { side, quality } of tries) {
    let image = sharp(data).flatten({ background: '#ffffff' });
    if (side) image = image.resize(side, side, { fit: 'inside', withoutEnlargement: true });
    jpeg = await image.jpeg({ quality, mozjpeg: true }).toBuffer();
    if (jpeg.length <= maxBytes) break;
  }
  return { data: jpeg, type: 'image/jpeg' };
}
