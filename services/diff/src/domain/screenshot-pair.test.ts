import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { screenshotPair } from './screenshot-pair.ts';

function picture(width: number, height: number, square?: { left: number; top: number }): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: 'white' } });
  const drawn = square
    ? base.composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/></svg>',
          ),
          ...square,
        },
      ])
    : base;
  return drawn.png().toBuffer();
}

async function pixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 3;
  return [data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0];
}

describe('screenshotPair', () => {
  it('boxes the same changed region on both images', async () => {
    const pair = await screenshotPair(
      await picture(300, 150, { left: 20, top: 20 }),
      await picture(300, 150, { left: 200, top: 90 }),
    );
    for (const image of [pair.before, pair.after]) {
      const [red, green] = await pixel(image, 120, 60);
      expect(red - green).toBeGreaterThan(20);
      expect(Math.min(...(await pixel(image, 290, 5)))).toBeGreaterThan(235);
    }
  });

  it('draws no box when nothing differs', async () => {
    const same = await picture(200, 100, { left: 10, top: 10 });
    const pair = await screenshotPair(same, same);
    expect(Math.min(...(await pixel(pair.after, 100, 50)))).toBeGreaterThan(235);
  });

  it('scales wide pictures down to 800 px and boxes what only the taller one has', async () => {
    const pair = await screenshotPair(await picture(1600, 400), await picture(1600, 800));
    const [before, after] = await Promise.all([sharp(pair.before).metadata(), sharp(pair.after).metadata()]);
    expect([before.format, before.width, before.height]).toEqual(['webp', 800, 200]);
    expect([after.width, after.height]).toEqual([800, 400]);
    const [red, green] = await pixel(pair.after, 400, 300);
    expect(red - green).toBeGreaterThan(20);
    expect(Math.min(...(await pixel(pair.after, 400, 100)))).toBeGreaterThan(235);
  });
});
