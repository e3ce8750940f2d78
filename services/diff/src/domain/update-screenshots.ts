import type { BlobStore } from '@mimamori/blob-store';
import type { Logger } from '@mimamori/runtime';
import { screenshotPair } from './screenshot-pair.ts';

export interface ScreenshotChoice {
  /** The screenshot recorded with the previous version (the before image); empty when none. */
  previousKey: string;
  currentKey: string;
}

export interface UpdateScreenshotKeys {
  before: string;
  after: string;
}

const NONE: UpdateScreenshotKeys = { before: '', after: '' };

/**
 * Writes the update's before/after images with the changed region boxed. The before image is the
 * one recorded at the previous change: the area looked like that until now. A failure here leaves
 * the update without images rather than losing it.
 */
export async function writeUpdateScreenshots(
  blobs: BlobStore,
  logger: Logger,
  folder: string,
  choice: ScreenshotChoice | null,
): Promise<UpdateScreenshotKeys> {
  if (!choice) return NONE;
  try {
    const current = await blobs.get(choice.currentKey);
    if (!current) return NONE;
    const previous = choice.previousKey ? await blobs.get(choice.previousKey) : null;
    const pair = await screenshotPair(previous?.data ?? current.data, current.data);
    const keys = { before: previous ? `${folder}/before.webp` : '', after: `${folder}/after.webp` };
    if (keys.before) await blobs.put(keys.before, pair.before, { contentType: 'image/webp' });
    await blobs.put(keys.after, pair.after, { contentType: 'image/webp' });
    return keys;
  } catch (error) {
    logger.warn({ err: error, folder }, 'screenshot update failed: update kept without images');
    return NONE;
  }
}
