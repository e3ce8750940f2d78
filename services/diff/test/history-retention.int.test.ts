import { randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createLogger } from '@mimamori/runtime';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepHistory } from '../src/retention/history-sweep.ts';
import { type DiffHarness, startDiffHarness } from './diff-harness.ts';

let harness: DiffHarness;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 18, 0);
// The plan's limits as the site's checks carry them: 2 updates, 7 days of checks.
const LIMITS = { keepUpdates: 2, keepCheckDays: 7 };

beforeAll(async () => {
  harness = await startDiffHarness();
});

afterAll(async () => {
  await harness?.close();
});

/** Every file of the blob store with its size. */
async function blobFiles(dir: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path, (await stat(path)).size);
  }
  return files;
}

const total = (files: Map<string, number>) => [...files.values()].reduce((sum, size) => sum + size, 0);

function picture(left: number): Promise<Buffer> {
  const square = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60"><rect width="60" height="60" fill="black"/></svg>`,
  );
  return sharp({ create: { width: 300, height: 150, channels: 3, background: 'white' } })
    .composite([{ input: square, left, top: 40 }])
    .png()
    .toBuffer();
}

describe('bounded history (docs/product.md#history)', () => {
  it('a sweep removes exactly the updates and checks past the limits, with their pictures, and no byte more', async () => {
    const userId = `user-${randomUUID()}`;
    const targetId = await harness.registerSite(userId, [{ areaId: 'hero' }], { screenshot: true });
    const other = await harness.registerSite(userId, [{ areaId: 'hero' }], { screenshot: true });
    const watchOf = (site: string) => ({
      ...(harness.watchOf(site) ?? { areas: [], rulesJson: '', screenshot: true }),
      ...LIMITS,
    });
    let n = 0;
    const check = async (site: string, daysAgo: number, text: string | null) => {
      n++;
      harness.clock.set(new Date(NOW - daysAgo * DAY));
      const checkId = `${site}:c${n}`;
      const key = `screenshots/${site}/c${n}/hero.png`;
      if (text !== null)
        await harness.blobs.put(key, await picture((n * 37) % 200), { contentType: 'image/png' });
      await harness.publishSnapshot({
        checkId,
        targetId: site,
        userId,
        watch: watchOf(site),
        ...(text === null
          ? { areas: [], error: { code: 'timeout', detail: 'slow', retryable: true, areaId: '' } }
          : {
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
            }),
      });
      return { checkId, ...(await harness.resultOf(checkId)) };
    };

    // 30 days ago the registration check; updates 20, 15, 10 and 1 days ago; failures 20 and 2.
    const first = await check(targetId, 30, 'v0');
    const u1 = await check(targetId, 20, 'v1');
    const e1 = await check(targetId, 19, null);
    const u2 = await check(targetId, 15, 'v2');
    const u3 = await check(targetId, 10, 'v3');
    const e2 = await check(targetId, 2, null);
    const u4 = await check(targetId, 1, 'v4');
    // Another site of the same user with nothing past its limits.
    const o1 = await check(other, 3, 'w0');
    const o2 = await check(other, 2, 'w1');
    expect([first, u1, e1, u2, u3, e2, u4].map((c) => c.outcome)).toEqual([
      'no_change',
      'update',
      'error',
      'update',
      'update',
      'error',
      'update',
    ]);

    const pictures = async (updateIds: (string | null)[]) => {
      const { rows } = await harness.db.query<{ before: string; after: string }>(
        `SELECT before_screenshot_blob_key AS before, after_screenshot_blob_key AS after
           FROM diff.updates WHERE update_id = ANY($1)`,
        [updateIds],
      );
      return rows.flatMap((row) => [row.before, row.after]).filter((key) => key !== '');
    };
    const goneKeys = await pictures([u1.update_id, u2.update_id]);
    const keptKeys = await pictures([u3.update_id, u4.update_id, o2.update_id]);
    expect(goneKeys).toHaveLength(4);
    expect(keptKeys.length).toBeGreaterThan(0);
    const before = await blobFiles(harness.blobDir);
    // A blob in the file store is its bytes and, beside them, its content type.
    const goneFiles = goneKeys.flatMap((key) => [
      join(harness.blobDir, key),
      join(harness.blobDir, '.types', key),
    ]);
    const goneBytes = goneFiles.reduce((sum, path) => sum + (before.get(path) ?? 0), 0);
    expect(goneFiles.every((path) => before.has(path))).toBe(true);

    const outcome = await sweepHistory({
      db: harness.db,
      blobs: harness.blobs,
      logger: createLogger({ service: 'diff-test', level: 'silent' }),
      now: new Date(NOW),
    });
    expect(outcome).toMatchObject({ updates: 2, checks: 4, blobs: 4 });

    const checks = await harness.db.query<{ check_id: string }>(
      'SELECT check_id FROM diff.check_results WHERE target_id = ANY($1) ORDER BY completed_at',
      [[targetId, other]],
    );
    // The update 10 days ago is kept (one of the newest 2) and so is its check, past 7 days.
    expect(checks.rows.map((row) => row.check_id).sort()).toEqual(
      [u3.checkId, e2.checkId, u4.checkId, o1.checkId, o2.checkId].sort(),
    );
    const updates = await harness.db.query<{ update_id: string }>(
      'SELECT update_id FROM diff.updates WHERE target_id = ANY($1) ORDER BY created_at',
      [[targetId, other]],
    );
    expect(updates.rows.map((row) => row.update_id).sort()).toEqual(
      [u3.update_id, u4.update_id, o2.update_id].sort(),
    );

    const after = await blobFiles(harness.blobDir);
    for (const key of goneKeys) expect(await harness.blobs.exists(key)).toBe(false);
    for (const key of keptKeys) expect(await harness.blobs.exists(key)).toBe(true);
    // Exactly the removed updates' pictures left the store: every other file is there, unchanged.
    console.log(
      `blob store before the sweep ${total(before)} B in ${before.size} files, after ${total(after)} B in ${after.size}; ` +
        `the removed updates' pictures held ${goneBytes} B`,
    );
    expect(total(before) - total(after)).toBe(goneBytes);
    expect([...before.keys()].filter((path) => !after.has(path)).sort()).toEqual(goneFiles.sort());
    for (const [path, size] of after) expect(before.get(path)).toBe(size);

    // A second sweep finds nothing more to do.
    expect(
      await sweepHistory({
        db: harness.db,
        blobs: harness.blobs,
        logger: createLogger({ service: 'diff-test', level: 'silent' }),
        now: new Date(NOW),
      }),
    ).toMatchObject({ updates: 0, checks: 0, blobs: 0 });
  }, 120_000);
});
