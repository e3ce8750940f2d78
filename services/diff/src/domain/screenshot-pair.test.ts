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

  it('frames the changed element the crawler measured, not only the pixels that differ', async () => {
    // The element spans 400..1000 × 200..320 on a 1600-px page; only its first glyphs change.
    const element = { x: 400, y: 200, width: 600, height: 120 };
    const pair = await screenshotPair(
      await picture(1600, 800, { left: 420, top: 240 }),
      await picture(1600, 800, { left: 470, top: 240 }),
      [element],
    );
    // At 800 px the element is 200..500 × 100..160; the stroke lies in the 4 px just outside it.
    const isRed = async (x: number, y: number) => {
      const [red, green] = await pixel(pair.after, x, y);
      return red - green > 100;
    };
    for (const [x, y] of [
      [198, 130],
      [502, 130],
      [350, 98],
      [350, 162],
    ]) {
      expect(await isRed(x as number, y as number)).toBe(true);
    }
    // Nothing drawn further out, and the element's far end is inside the box (tinted, not white).
    for (const [x, y] of [
      [192, 130],
      [508, 130],
      [350, 92],
      [350, 168],
    ]) {
      expect(Math.min(...(await pixel(pair.after, x as number, y as number)))).toBeGreaterThan(235);
    }
    const [red, green] = await pixel(pair.before, 480, 150);
    expect(red - green).toBeGreaterThan(20);
  });

  it('frames a whole area picture, which is the element itself', async () => {
    const pair = await screenshotPair(
      await picture(200, 60),
      await picture(200, 60, { left: 0, top: 0 }),
      'whole',
    );
    const [red, green] = await pixel(pair.after, 1, 30);
    expect(red - green).toBeGreaterThan(100);
    const [innerRed, innerGreen] = await pixel(pair.after, 150, 30);
    expect(innerRed - innerGreen).toBeGreaterThan(20);
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
