import type { Locator, Page } from 'playwright-core';
import type { Box } from './area-reader.ts';
import { isolatedWorld } from './isolated-world.ts';
import { PAGE_SIZE } from './page-scripts.ts';
import { type EncodedImage, encodeScreenshot } from './screenshot-encoding.ts';

/**
 * What masks an excluded element in a screenshot: a flat mid grey, plainly not part of the page,
 * as the wizard's preview shows it.
 */
export const MASK_COLOR = '#6b7280';

/** Taller pages are captured down to here; WebP cannot hold more than 16383 px anyway. */
const MAX_CAPTURE_HEIGHT = 16_000;

export interface PageCapture {
  image: EncodedImage;
  /** Image pixels per CSS pixel: the encoding may scale a wide page down (or a dense screen up). */
  scale: number;
}

/**
 * Chromium captures JPEG (about half the cost of PNG on long pages); sharp then bounds the size
 * and encodes WebP.
 */
export async function capturePage(page: Page, mask: Locator[] = []): Promise<PageCapture> {
  const world = await isolatedWorld(page);
  const size = await world.evaluate<{ width: number; height: number }>(PAGE_SIZE);
  const viewport = page.viewportSize();
  const width = Math.max(1, Math.min(size.width, viewport?.width ?? size.width));
  const height = Math.max(1, Math.min(size.height, MAX_CAPTURE_HEIGHT));
  const capture = await page.screenshot({
    type: 'jpeg',
    quality: 85,
    fullPage: true,
    clip: { x: 0, y: 0, width, height },
    caret: 'hide',
    ...masked(mask),
  });
  const image = await encodeScreenshot(capture);
  return { image, scale: image.width / width };
}

/** A box in CSS pixels of the document, in pixels of a page capture, cut to the image. */
export function boxOnCapture(box: Box, capture: PageCapture): Box | null {
  const left = Math.max(0, Math.round(box.x * capture.scale));
  const top = Math.max(0, Math.round(box.y * capture.scale));
  const right = Math.min(capture.image.width, Math.round((box.x + box.width) * capture.scale));
  const bottom = Math.min(capture.image.height, Math.round((box.y + box.height) * capture.scale));
  if (right <= left || bottom <= top) return null;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

export async function captureArea(page: Page, box: Box, mask: Locator[] = []): Promise<EncodedImage> {
  const clip = {
    x: Math.max(0, box.x),
    y: Math.max(0, box.y),
    width: Math.max(1, Math.min(box.width, 4_000)),
    height: Math.max(1, Math.min(box.height, MAX_CAPTURE_HEIGHT)),
  };
  const capture = await page.screenshot({
    type: 'jpeg',
    quality: 85,
    fullPage: true,
    clip,
    caret: 'hide',
    ...masked(mask),
  });
  return encodeScreenshot(capture);
}

const masked = (mask: Locator[]) => (mask.length > 0 ? { mask, maskColor: MASK_COLOR } : {});
