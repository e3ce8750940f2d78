import type { Page } from 'playwright-core';
import type { Box } from '../browser/area-reader.ts';
import { isolatedWorld } from '../browser/isolated-world.ts';
import { ELEMENT_MAP, FRAME_CONTENT_BOX } from '../browser/page-scripts.ts';
import { type EncodedImage, encodeScreenshot } from '../browser/screenshot-encoding.ts';
import type { SelectorType } from '../domain/page-fetcher.ts';

export interface FrameRef {
  selector: string;
  selectorType: SelectorType;
}

export interface PreviewElement {
  tag: string;
  box: Box;
  css: string;
  xpath: string;
  text: string;
}

export interface PreviewFrame {
  css: string;
  xpath: string;
  src: string;
  name: string;
  box: Box;
}

export interface PreviewRender {
  url: string;
  /** The top document's title, whitespace collapsed; empty when it has none. */
  title: string;
  screenshot: EncodedImage;
  /** Image pixels per CSS pixel. */
  scale: number;
  frame?: FrameRef;
  frames: PreviewFrame[];
  elements: PreviewElement[];
}

/** Enough for a person to point at anything on a long page without shipping every node. */
const MAX_ELEMENTS = 4_000;
/** The picture stays well under gRPC's 4 MB message limit; the wizard rarely needs more. */
const MAX_HEIGHT = 10_000;

interface ElementMap {
  elements: PreviewElement[];
  frames: PreviewFrame[];
  page: { width: number; height: number };
}

/**
 * The wizard's picture of the page: a screenshot and, in the same CSS-pixel coordinates, every
 * visible element with a CSS selector and an XPath, plus the frames one can step into. Inside
 * a frame, the picture is the frame's box and coordinates are the frame document's.
 */
export async function renderPreview(page: Page, frame?: FrameRef): Promise<PreviewRender> {
  const world = await isolatedWorld(page, frame);
  const map = await world.evaluate<ElementMap>(ELEMENT_MAP, { maxElements: MAX_ELEMENTS });
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  let clip: Box;
  if (frame) {
    const frameBox = await (await isolatedWorld(page)).evaluate<Box | null>(FRAME_CONTENT_BOX, frame);
    clip = frameBox ?? { x: 0, y: 0, width: viewport.width, height: viewport.height };
  } else {
    clip = {
      x: 0,
      y: 0,
      width: Math.max(1, Math.min(map.page.width || viewport.width, viewport.width)),
      height: Math.max(1, Math.min(map.page.height || viewport.height, MAX_HEIGHT)),
    };
  }
  const capture = await page.screenshot({
    type: 'jpeg',
    quality: 85,
    fullPage: true,
    clip: { ...clip, width: Math.max(1, clip.width), height: Math.max(1, Math.min(clip.height, MAX_HEIGHT)) },
    caret: 'hide',
  });
  const screenshot = await encodeScreenshot(capture, { maxHeight: MAX_HEIGHT });
  const shown = (box: Box) => frame !== undefined || box.y < MAX_HEIGHT;
  const title = (await page.title().catch(() => '')).replace(/\s+/g, ' ').trim();
  return {
    url: page.url(),
    title,
    screenshot,
    scale: screenshot.width / Math.max(1, clip.width),
    ...(frame ? { frame } : {}),
    frames: map.frames.filter((entry) => shown(entry.box)),
    elements: map.elements.filter((entry) => shown(entry.box)),
  };
}
