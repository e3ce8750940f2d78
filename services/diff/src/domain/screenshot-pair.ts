import sharp from 'sharp';

/** Wide enough to read, small enough that WebP encoding of a long page stays cheap on a shared crawler. */
const PAIR_WIDTH = 800;
// Summed RGB difference under which two pixels count as the same (anti-aliasing, JPEG noise).
const PIXEL_TOLERANCE = 48;
// The stroke lies in this margin around the element, so it frames the element without covering it.
const BOX_PADDING = 4;

export interface ScreenshotPair {
  before: Buffer;
  after: Buffer;
}

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A rectangle on the after image, in its pixels. */
export interface ElementBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What to box: the changed areas' elements on the after image as the crawler measured them,
 * or the whole picture when the picture is the element (an area screenshot).
 */
export type Highlight = readonly ElementBox[] | 'whole';

/**
 * The before/after images of an update as WebP, at one width, with the changed elements
 * outlined by a translucent red box on both, so the eye goes to what changed. The before image
 * gets the boxes measured now: the element's earlier position was not recorded.
 *
 * Without a highlight (a page screenshot taken before the crawler measured boxes) the box is
 * drawn around the pixels that differ: only the glyphs that changed, plus whatever else on the
 * page moved, rather than the watched element.
 */
export async function screenshotPair(
  before: Uint8Array,
  after: Uint8Array,
  highlight?: Highlight,
): Promise<ScreenshotPair> {
  const afterWidth = (await sharp(after).metadata()).width ?? PAIR_WIDTH;
  const width = Math.min(afterWidth, PAIR_WIDTH);
  const [old, now] = await Promise.all([rawAt(before, width), rawAt(after, width)]);
  const scale = width / afterWidth;
  const boxes =
    highlight === 'whole'
      ? [{ left: 0, top: 0, right: now.width - 1, bottom: now.height - 1 }]
      : highlight
        ? highlight.map((element) => scaled(element, scale))
        : [changedBox(old, now)].filter((box) => box !== null);
  const [beforeImage, afterImage] = await Promise.all([highlighted(old, boxes), highlighted(now, boxes)]);
  return { before: beforeImage, after: afterImage };
}

function scaled(element: ElementBox, scale: number): Box {
  return {
    left: Math.round(element.x * scale),
    top: Math.round(element.y * scale),
    right: Math.round((element.x + element.width) * scale) - 1,
    bottom: Math.round((element.y + element.height) * scale) - 1,
  };
}

async function rawAt(image: Uint8Array, width: number): Promise<Raw> {
  const { data, info } = await sharp(image)
    .resize({ width })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The smallest box holding every differing pixel; what only one image has counts as changed. */
function changedBox(old: Raw, now: Raw): Box | null {
  const width = Math.min(old.width, now.width);
  const common = Math.min(old.height, now.height);
  let box: Box | null = null;
  for (let y = 0; y < common; y++) {
    for (let x = 0; x < width; x++) {
      const a = (y * old.width + x) * 3;
      const b = (y * now.width + x) * 3;
      const delta =
        Math.abs((old.data[a] ?? 0) - (now.data[b] ?? 0)) +
        Math.abs((old.data[a + 1] ?? 0) - (now.data[b + 1] ?? 0)) +
        Math.abs((old.data[a + 2] ?? 0) - (now.data[b + 2] ?? 0));
      if (delta > PIXEL_TOLERANCE) box = grow(box, x, y);
    }
  }
  const taller = Math.max(old.height, now.height);
  if (taller > common) {
    box = grow(box, 0, common);
    box = grow(box, width - 1, taller - 1);
  }
  return box;
}

function grow(box: Box | null, x: number, y: number): Box {
  if (!box) return { left: x, top: y, right: x, bottom: y };
  return {
    left: Math.min(box.left, x),
    top: Math.min(box.top, y),
    right: Math.max(box.right, x),
    bottom: Math.max(box.bottom, y),
  };
}

async function highlighted(image: Raw, boxes: readonly Box[]): Promise<Buffer> {
  const base = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  const overlay = boxOverlay(image, boxes);
  return (overlay ? base.composite([{ input: overlay, top: 0, left: 0 }]) : base)
    .webp({ quality: 80, effort: 2 })
    .toBuffer();
}

const STROKE = 4;

/**
 * An SVG the size of the image with each padded box, its stroke drawn just outside the padding
 * so the element stays unobscured; null when every box lies below the image.
 */
function boxOverlay(image: Raw, boxes: readonly Box[]): Buffer | null {
  const rects = boxes
    .filter((box) => box.top < image.height)
    .map((box) => {
      const left = Math.max(0, box.left - BOX_PADDING);
      const top = Math.max(0, box.top - BOX_PADDING);
      const right = Math.min(image.width - 1, box.right + BOX_PADDING);
      const bottom = Math.min(image.height - 1, box.bottom + BOX_PADDING);
      return (
        `<rect x="${left + STROKE / 2}" y="${top + STROKE / 2}" width="${Math.max(1, right - left - STROKE)}" ` +
        `height="${Math.max(1, bottom - top - STROKE)}" fill="rgb(255,0,0)" fill-opacity="0.15" ` +
        `stroke="rgb(230,0,0)" stroke-opacity="0.9" stroke-width="${STROKE}"/>`
      );
    });
  if (rects.length === 0) return null;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">${rects.join('')}</svg>`,
  );
}
