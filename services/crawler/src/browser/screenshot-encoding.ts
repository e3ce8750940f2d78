import sharp from 'sharp';

export interface EncodedImage {
  data: Uint8Array;
  contentType: string;
  width: number;
  height: number;
}

export interface ScreenshotEncoding {
  /** Wider captures are scaled down to this width. */
  maxWidth?: number;
  /** Taller captures are cut (WebP cannot exceed 16383 px). */
  maxHeight?: number;
  quality?: number;
}

/**
 * Re-encodes a capture as WebP of bounded size. Effort 2 keeps encoding near the cost of the
 * capture itself (full effort costs several times more for a few percent of bytes).
 */
export async function encodeScreenshot(
  capture: Buffer,
  encoding: ScreenshotEncoding = {},
): Promise<EncodedImage> {
  const maxWidth = encoding.maxWidth ?? 1280;
  const maxHeight = encoding.maxHeight ?? 16_000;
  const image = sharp(capture, { limitInputPixels: 1280 * 2 * 40_000 });
  const { width = 0, height = 0 } = await image.metadata();
  const scale = width > maxWidth ? maxWidth / width : 1;
  const scaledHeight = Math.max(1, Math.round(height * scale));
  let pipeline = scale < 1 ? image.resize({ width: maxWidth }) : image;
  if (scaledHeight > maxHeight) {
    pipeline = sharp(await pipeline.toBuffer()).extract({
      left: 0,
      top: 0,
      width: Math.min(width, maxWidth),
      height: maxHeight,
    });
  }
  const { data, info } = await pipeline
    .webp({ quality: encoding.quality ?? 70, effort: 2 })
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    contentType: 'image/webp',
    width: info.width,
    height: info.height,
  };
}
