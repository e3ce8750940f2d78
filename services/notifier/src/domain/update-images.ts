import type { BlobStore } from '@mimamori/blob-store/blob-store';
import type { UpdateImage } from './update-notice.ts';

/**
 * The before/after pictures named by an update. A picture already gone (the site was deleted
 * meanwhile) is left out rather than holding the update back.
 */
export async function loadUpdateImages(
  blobs: BlobStore,
  keys: { before: string; after: string },
): Promise<UpdateImage[]> {
  const images: UpdateImage[] = [];
  for (const name of ['before', 'after'] as const) {
    const key = keys[name];
    if (!key) continue;
    const blob = await blobs.get(key);
    if (blob) images.push({ name, data: blob.data, contentType: blob.contentType ?? 'image/webp' });
  }
  return images;
}
