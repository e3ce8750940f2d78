import { randomBytes, randomUUID } from 'node:crypto';
import {
  IMAGE_LINK_TTL_SECONDS,
  imageLinkVariant,
  signImageLink,
  updateImageLinks,
} from '@mimamori/image-links';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../accounts/test-browser.ts';
import { type HistoryHarness, startHistoryHarness } from './history-harness.ts';
import { squarePicture } from './square-picture.ts';

// The public picture links LINE and Teams fetch (docs/channels.md#images): served to anyone
// holding a live link, with no session, until the link expires or the site is deleted.

const key = randomBytes(32);
let harness: HistoryHarness;
let alice: { browser: TestBrowser; userId: string };
let site: string;
let pictures: { before: string; after: string };

const get = (url: string) => {
  const { pathname, search } = new URL(url, 'http://gateway');
  return harness.gateway.app.inject({ method: 'GET', url: `${pathname}${search}` });
};
const now = () => Math.floor(Date.now() / 1000);
const linksOf = () =>
  updateImageLinks(
    key,
    'https://mimamori.example/',
    { targetId: site, beforeBlobKey: pictures.before, afterBlobKey: pictures.after },
    now(),
  );

beforeAll(async () => {
  harness = await startHistoryHarness({ imageLinkKey: key });
  alice = await harness.signedIn(`alice-${randomUUID().slice(0, 8)}@example.com`, 'Asia/Tokyo');
  const registered = await alice.browser.post('/api/v2/target/register', {
    label: 'Shop news',
    url: 'https://shop.example/news',
    interval_minutes: 60,
    screenshot: true,
    areas: [{ area_id: 'news', label: 'News', locator: { selector: '#news' } }],
    fetch_mode: 'browser',
  });
  expect(registered.status, registered.text).toBe(201);
  site = String(registered.body.target_v2_id);
  for (const [index, text, left] of [
    [0, 'v1', 40],
    [1, 'v2', 240],
  ] as const) {
    const screenshotBlobKey = `screenshots/${site}/c${index}/news.png`;
    await harness.blobs.put(screenshotBlobKey, squarePicture(left, 40), { contentType: 'image/png' });
    await harness.check({
      checkId: `${site}:${index}`,
      targetId: site,
      userId: alice.userId,
      areas: [
        { areaId: 'news', found: true, html: '', text, htmlBlobKey: '', textBlobKey: '', screenshotBlobKey },
      ],
    });
  }
  const { rows } = await harness.db.query<{ before: string; after: string }>(
    `SELECT before_screenshot_blob_key AS before, after_screenshot_blob_key AS after
       FROM diff.updates WHERE target_id = $1`,
    [site],
  );
  pictures = rows[0] ?? { before: '', after: '' };
  expect(pictures.after).toMatch(/after\.webp$/);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe('public picture links', () => {
  it('serve the picture as stored, as a JPEG and as a preview, to a caller with no session or cookie', async () => {
    const links = linksOf();
    const jpeg = await get(links.after ?? '');
    expect([jpeg.statusCode, jpeg.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect(jpeg.headers['x-content-type-options']).toBe('nosniff');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(jpeg.headers['cache-control']))?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(IMAGE_LINK_TTL_SECONDS);
    expect((await sharp(jpeg.rawPayload).metadata()).format).toBe('jpeg');

    const stored = new URL(links.after ?? '');
    stored.search = '';
    const original = await get(stored.toString());
    expect([original.statusCode, original.headers['content-type']]).toEqual([200, 'image/webp']);
    expect(
      original.rawPayload.equals(Buffer.from((await harness.blobs.get(pictures.after))?.data ?? [])),
    ).toBe(true);

    const preview = await get(imageLinkVariant(links.before ?? '', 'preview'));
    expect([preview.statusCode, preview.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect(preview.rawPayload.length).toBeLessThanOrEqual(1024 * 1024);
  });

  it('keep a large busy picture’s preview within 1 MB and 1024 px', async () => {
    const noisy = await sharp(randomBytes(1600 * 3000 * 3), {
      raw: { width: 1600, height: 3000, channels: 3 },
    })
      .png()
      .toBuffer();
    const blobKey = `updates/${site}/noisy/after.png`;
    await harness.blobs.put(blobKey, noisy, { contentType: 'image/png' });
    const token = signImageLink(key, { targetId: site, blobKey, expiresAt: now() + 60 });
    const preview = await get(`/i/${token}?preview=1`);
    expect(preview.statusCode).toBe(200);
    expect(noisy.length).toBeGreaterThan(1024 * 1024);
    expect(preview.rawPayload.length).toBeLessThanOrEqual(1024 * 1024);
    const { width, height } = await sharp(preview.rawPayload).metadata();
    expect(Math.max(width ?? 0, height ?? 0)).toBeLessThanOrEqual(1024);
    // A link whose expiry is near is not cached past it.
    const original = await get(`/i/${token}`);
    expect(Number(/max-age=(\d+)/.exec(String(original.headers['cache-control']))?.[1])).toBeLessThanOrEqual(
      60,
    );
    await harness.blobs.delete(blobKey);
  });

  it('answer the same 404 to a forged, altered, expired or unknown-blob link', async () => {
    const after = new URL(linksOf().after ?? '');
    const token = after.pathname.slice('/i/'.length);
    const answers = await Promise.all(
      [
        `/i/${signImageLink(randomBytes(32), { targetId: site, blobKey: pictures.after, expiresAt: now() + 60 })}`,
        `/i/${token.slice(0, -2)}xx`,
        `/i/${signImageLink(key, { targetId: site, blobKey: pictures.after, expiresAt: now() - 1 })}`,
        `/i/${signImageLink(key, { targetId: site, blobKey: `updates/${site}/none/after.webp`, expiresAt: now() + 60 })}`,
        '/i/not-a-token',
      ].map((url) => get(url)),
    );
    for (const answer of answers) {
      expect([answer.statusCode, answer.json()]).toEqual([
        404,
        { error: { code: 'not_found', message_key: 'errors.not_found' } },
      ]);
    }
  });

  it('slow a link fetched too often (429 with Retry-After)', async () => {
    const token = signImageLink(key, {
      targetId: site,
      blobKey: `updates/${site}/gone.webp`,
      expiresAt: now() + 60,
    });
    const answers = [];
    for (let index = 0; index < 31; index++) answers.push((await get(`/i/${token}`)).statusCode);
    expect(answers.slice(0, 30).every((status) => status === 404)).toBe(true);
    const slowed = await get(`/i/${token}`);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('2');
  });

  it('die with the site: once it is deleted its links answer 404', async () => {
    const links = linksOf();
    expect((await get(links.after ?? '')).statusCode).toBe(200);
    const deleted = await alice.browser.post('/api/v2/delete', { target_v2_id: site });
    expect(deleted.status, deleted.text).toBe(200);
    for (let attempt = 0; attempt < 400 && (await harness.blobs.exists(pictures.after)); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    for (const url of [links.before ?? '', links.after ?? '']) {
      const answer = await get(url);
      expect([answer.statusCode, answer.json()]).toEqual([
        404,
        { error: { code: 'not_found', message_key: 'errors.not_found' } },
      ]);
    }
  });
});
