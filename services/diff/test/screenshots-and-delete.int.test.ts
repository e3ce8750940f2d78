import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DiffHarness, startDiffHarness } from './diff-harness.ts';

let harness: DiffHarness;

beforeAll(async () => {
  harness = await startDiffHarness();
});

afterAll(async () => {
  await harness?.close();
});

/** A 400×200 white picture with a black square at (left, top). */
function picture(left: number, top: number): Promise<Buffer> {
  const square = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60"><rect width="60" height="60" fill="black"/></svg>`,
  );
  return sharp({ create: { width: 400, height: 200, channels: 3, background: 'white' } })
    .composite([{ input: square, left, top }])
    .png()
    .toBuffer();
}

async function pixel(image: Uint8Array, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 3;
  return [data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0];
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition never held');
}

describe('screenshots and deletion', () => {
  const userId = `user-${randomUUID()}`;
  let targetId: string;
  const kept: string[] = [];

  async function checkWithPicture(name: string, text: string, image: Buffer) {
    const checkId = `${targetId}:${name}`;
    const key = `screenshots/${targetId}/${name}/hero.png`;
    await harness.blobs.put(key, image, { contentType: 'image/png' });
    await harness.publishSnapshot({
      checkId,
      targetId,
      userId,
      areas: [
        {
          areaId: 'hero',
          found: true,
          html: '',
          text,
          htmlBlobKey: '',
          textBlobKey: '',
          screenshotBlobKey: key,
        },
      ],
    });
    return { key, ...(await harness.resultOf(checkId)) };
  }

  beforeAll(async () => {
    targetId = await harness.registerSite(userId, [{ areaId: 'hero' }], { screenshot: true });
  });

  it('keeps the registration picture and drops the pictures of checks that changed nothing', async () => {
    const first = await checkWithPicture('c1', 'Spring sale', await picture(40, 40));
    expect(first.outcome).toBe('no_change');
    kept.push(first.key);
    const same = await checkWithPicture('c2', 'Spring sale', await picture(40, 40));
    expect(same.outcome).toBe('no_change');
    await waitFor(async () => !(await harness.blobs.exists(same.key)));
    expect(await harness.blobs.exists(first.key)).toBe(true);
  });

  it('pairs the previous change with this one as WebP, the area (the whole picture) boxed on both', async () => {
    const changed = await checkWithPicture('c3', 'Summer sale', await picture(240, 100));
    expect(changed.outcome).toBe('update');
    kept.push(changed.key);
    const [change] = (await harness.changes()).filter((candidate) => candidate.targetId === targetId);
    expect(change?.beforeScreenshotBlobKey).toMatch(/\/before\.webp$/);
    expect(change?.afterScreenshotBlobKey).toMatch(/\/after\.webp$/);
    const before = await harness.blobs.get(change?.beforeScreenshotBlobKey ?? '');
    const after = await harness.blobs.get(change?.afterScreenshotBlobKey ?? '');
    if (!before || !after) throw new Error('the pair was not written');
    kept.push(change?.beforeScreenshotBlobKey ?? '', change?.afterScreenshotBlobKey ?? '');
    for (const image of [before, after]) {
      const meta = await sharp(image.data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 400, 200]);
    }
    // An area's picture is its element, not just the pixels that changed: the box frames the
    // whole picture, far from both squares too.
    for (const image of [before, after]) {
      for (const [x, y] of [
        [170, 70],
        [380, 190],
      ]) {
        const [red, green, blue] = await pixel(image.data, x as number, y as number);
        expect(red - green).toBeGreaterThan(20);
        expect(red - blue).toBeGreaterThan(20);
      }
      const [edgeRed, edgeGreen] = await pixel(image.data, 1, 100);
      expect(edgeRed - edgeGreen).toBeGreaterThan(100);
    }
    // The before image still shows the square where it was; the after image where it moved to.
    expect(Math.max(...(await pixel(before.data, 70, 70)))).toBeLessThan(60);
    expect(Math.max(...(await pixel(after.data, 270, 130)))).toBeLessThan(60);
  });

  it("forgets a deleted site's versions, results, updates and blobs, and a late snapshot of it", async () => {
    await harness.deleteSite(userId, targetId);
    const remaining = async () => {
      const { rows } = await harness.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM diff.area_versions WHERE target_id = $1)
              + (SELECT count(*) FROM diff.check_results WHERE target_id = $1)
              + (SELECT count(*) FROM diff.updates WHERE target_id = $1) AS n`,
        [targetId],
      );
      return Number(rows[0]?.n);
    };
    await waitFor(async () => (await remaining()) === 0);
    await waitFor(async () => {
      const present = await Promise.all(kept.map((key) => harness.blobs.exists(key)));
      return present.every((exists) => !exists);
    });

    const late = `screenshots/${targetId}/c4/hero.png`;
    await harness.blobs.put(late, await picture(0, 0));
    await harness.publishSnapshot({
      checkId: `${targetId}:c4`,
      targetId,
      userId,
      areas: [
        {
          areaId: 'hero',
          found: true,
          html: '',
          text: 'x',
          htmlBlobKey: '',
          textBlobKey: '',
          screenshotBlobKey: late,
        },
      ],
    });
    await waitFor(async () => !(await harness.blobs.exists(late)));
    expect(await remaining()).toBe(0);
  });
});

describe('page pictures and large content', () => {
  it('pairs whole-page pictures when areas have none, reading area text held in the blob store', async () => {
    const userId = `user-${randomUUID()}`;
    const targetId = await harness.registerSite(userId, [{ areaId: 'body' }], { screenshot: true });
    const checkPage = async (name: string, text: string, image: Buffer) => {
      const checkId = `${targetId}:${name}`;
      const page = `screenshots/${targetId}/${name}/page.png`;
      const textKey = `snapshots/${targetId}/${name}/body.txt`;
      await harness.blobs.put(page, image);
      await harness.blobs.put(textKey, Buffer.from(text));
      await harness.publishSnapshot({
        checkId,
        targetId,
        userId,
        pageScreenshotBlobKey: page,
        areas: [
          {
            areaId: 'body',
            found: true,
            html: '',
            text: '',
            htmlBlobKey: '',
            textBlobKey: textKey,
            screenshotBlobKey: '',
          },
        ],
      });
      return { page, textKey, ...(await harness.resultOf(checkId)) };
    };
    const first = await checkPage('p1', 'Opening hours 9-17', await picture(40, 40));
    expect(first.outcome).toBe('no_change');
    const changed = await checkPage('p2', 'Closed today', await picture(240, 100));
    expect(changed.outcome).toBe('update');

    const [change] = (await harness.changes()).filter((candidate) => candidate.targetId === targetId);
    expect(change?.areas[0]?.diffText).toBe('- Opening hours 9-17\n+ Closed today');
    const after = await harness.blobs.get(change?.afterScreenshotBlobKey ?? '');
    if (!after) throw new Error('no after image');
    const [red, green] = await pixel(after.data, 170, 70);
    expect(red - green).toBeGreaterThan(20);
    // Area text is copied into the versions, so its blobs go; the page pictures of both versions stay.
    await waitFor(async () => !(await harness.blobs.exists(changed.textKey)));
    await waitFor(async () => !(await harness.blobs.exists(first.textKey)));
    expect(await harness.blobs.exists(first.page)).toBe(true);
    expect(await harness.blobs.exists(changed.page)).toBe(true);
  });

  it('boxes the changed area where the crawler measured it on the page, not the pixels that differ', async () => {
    const userId = `user-${randomUUID()}`;
    const targetId = await harness.registerSite(userId, [{ areaId: 'price' }], { screenshot: true });
    // The price sits at 20..140 × 130..170 of the page picture; elsewhere a square moves (a
    // clock, an advert) between the checks.
    const pageBox = { x: 20, y: 130, width: 120, height: 40 };
    const checkPage = async (name: string, text: string, image: Buffer) => {
      const checkId = `${targetId}:${name}`;
      const page = `screenshots/${targetId}/${name}/page.png`;
      await harness.blobs.put(page, image);
      await harness.publishSnapshot({
        checkId,
        targetId,
        userId,
        pageScreenshotBlobKey: page,
        areas: [
          {
            areaId: 'price',
            found: true,
            html: '',
            text,
            htmlBlobKey: '',
            textBlobKey: '',
            screenshotBlobKey: '',
            pageBox,
          },
        ],
      });
      return harness.resultOf(checkId);
    };
    expect((await checkPage('p1', '¥1,980', await picture(240, 20))).outcome).toBe('no_change');
    expect((await checkPage('p2', '¥2,480', await picture(300, 100))).outcome).toBe('update');
    const [change] = (await harness.changes()).filter((candidate) => candidate.targetId === targetId);
    const after = await harness.blobs.get(change?.afterScreenshotBlobKey ?? '');
    if (!after) throw new Error('no after image');
    const strokeAt = async (x: number, y: number) => {
      const [red, green] = await pixel(after.data, x, y);
      return red - green > 100;
    };
    // The stroke lies in the 4 px around the element, on all four sides.
    expect(await strokeAt(18, 150)).toBe(true);
    expect(await strokeAt(142, 150)).toBe(true);
    expect(await strokeAt(80, 128)).toBe(true);
    expect(await strokeAt(80, 172)).toBe(true);
    // Where only the moving square differs, nothing is drawn.
    expect(Math.min(...(await pixel(after.data, 280, 60)))).toBeGreaterThan(235);
  });
});
