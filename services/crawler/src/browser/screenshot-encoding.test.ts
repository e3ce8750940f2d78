import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeScreenshot } from './screenshot-encoding.ts';

function capture(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 250, g: 250, b: 250 } } })
    .jpeg()
    .toBuffer();
}

describe('screenshot encoding', () => {
  it('scales a wide capture down to 1280 px and encodes WebP', async () => {
    const image = await encodeScreenshot(await capture(2560, 1000));
    const meta = await sharp(image.data).metadata();
    expect([image.contentType, meta.format, meta.width, meta.height]).toEqual([
      'image/webp',
      'webp',
      1280,
      500,
    ]);
    expect([image.width, image.height]).toEqual([1280, 500]);
  });

  it('cuts a very long page at the height limit', async () => {
    const image = await encodeScreenshot(await capture(1280, 20_000), { maxHeight: 16_000 });
    expect([image.width, image.height]).toEqual([1280, 16_000]);
  });

  it('keeps a small capture at its size', async () => {
    const image = await encodeScreenshot(await capture(300, 80));
    expect([image.width, image.height]).toEqual([300, 80]);
  });
});
