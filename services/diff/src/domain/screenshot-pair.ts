import sharp from 'sharp';

/** Wide enough to read, small enough that WebP encoding of a long page stays cheap on a shared crawler. */
const PAIR_WIDTH = 800;
// Summed RGB difference under which two pixels count as the same (anti-aliasing, JPEG noise).
const PIXEL_TOLERANCE = 48;
const BOX_PADDING = 8;

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

/**
 * The before/after images of an update as WebP, at one width, with the region whose pixels
 * differ outlined by a translucent red box on both, so the eye goes to what changed.
 */
export async function screenshotPair(before: Uint8Array, after: Uint8Array): Promise<ScreenshotPair> {
  const afterWidth = (await sharp(after).metadata()).width ?? PAIR_WIDTH;
  const width = Math.min(afterWidth, PAIR_WIDTH);
  const [old, now] = await Promise.all([rawAt(before, width), rawAt(after, width)]);
  const box = changedBox(old, now);
  const [beforeImage, afterImage] = await Promise.all([highlighted(old, box), highlighted(now, box)]);
  return { before: beforeImage, after: afterImage };
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

async function highlighted(image: Raw, box: Box | null): Promise<Buffer> {
  const base = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  const overlay = box ? boxOverlay(image, box) : null;
  return (overlay ? base.composite([{ input: overlay, top: 0, left: 0 }]) : base)
    .webp({ quality: 80, effort: 2 })
    .toBuffer();
}

/** An SVG the size of the image with the padded box; null when the box lies below the image. */
function boxOverlay(image: Raw, box: Box): Buffer | null {
  if (box.top >= image.height) return null;
  const left = Math.max(0, box.left - BOX_PADDING);
  const top = Math.max(0, box.top - BOX_PADDING);
  const right = Math.min(image.width - 1, box.right + BOX_PADDING);
  const bottom = Math.min(image.height - 1, box.bottom + BOX_PADDING);
  const stroke = 4;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">` +
    `<rect x="${left + stroke / 2}" y="${top + stroke / 2}" width="${Math.max(1, right - left - stroke)}" ` +
    `height="${Math.max(1, bottom - top - stroke)}" fill="rgb(255,0,0)" fill-opacity="0.15" ` +
    `stroke="rgb(230,0,0)" stroke-opacity="0.9" stroke-width="${stroke}"/></svg>`;
  return Buffer.from(svg);
}
