import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserResponse, TestBrowser } from '../accounts/test-browser.ts';
import { expectEveryApiRouteDescribed } from '../openapi-coverage.ts';
import { type HistoryHarness, startHistoryHarness } from './history-harness.ts';
import { squarePicture } from './square-picture.ts';

let harness: HistoryHarness;
let alice: { browser: TestBrowser; userId: string };
let bob: { browser: TestBrowser; userId: string };
let site: string;
let bobSite: string;
let emptyOnRegistration: BrowserResponse;

// 23:00 in Tokyo on 20 November, then a check every 20 minutes: the first three fall on the 20th
// in Tokyo and the last two on the 21st; in UTC all five are on the 20th.
const START = Date.parse('2026-11-20T14:00:00Z');
const STEP = 20 * 60_000;
const at = (index: number) => new Date(START + index * STEP).toISOString();

type Entry = {
  check_id: string;
  outcome: string;
  checked_at: string;
  error: { code: string; message_key: string; detail: string; http_status?: number } | null;
  update: {
    update_id: string;
    notify: boolean;
    matched: { area_id: string; operator: string; value: string }[];
    areas: {
      area_id: string;
      label: string;
      diff_text: string;
      rows: { kind: string; changed: boolean }[];
    }[];
    screenshots: { before: string | null; after: string | null };
  } | null;
};
type Page = {
  target: { id: string; label: string; url: string; new: boolean };
  time_zone: string;
  entries: Entry[];
  older_cursor: string | null;
  newer_cursor: string | null;
};

const page = (response: BrowserResponse) => response.body as unknown as Page;
const historyOf = async (browser: TestBrowser, query: Record<string, string>) => {
  const response = await browser.get(`/api/v2/history?${new URLSearchParams({ id: site, ...query })}`);
  expect(response.status).toBe(200);
  return page(response);
};

/** The picture as the browser receives it, bytes included. */
async function fetchImage(browser: TestBrowser, url: string) {
  const response = await harness.gateway.app.inject({
    method: 'GET',
    url,
    cookies: Object.fromEntries(browser.cookies),
  });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

function snapshotArea(name: string, text: string) {
  return {
    areaId: 'news',
    found: true,
    html: '',
    text,
    htmlBlobKey: '',
    textBlobKey: '',
    screenshotBlobKey: `screenshots/${site}/${name}/news.png`,
  };
}

async function checkWithPicture(index: number, text: string, left: number, top: number) {
  harness.clock.set(new Date(at(index)));
  const area = snapshotArea(`c${index}`, text);
  await harness.blobs.put(area.screenshotBlobKey, squarePicture(left, top), { contentType: 'image/png' });
  return harness.check({ checkId: `${site}:${index}`, targetId: site, userId: alice.userId, areas: [area] });
}

async function failedCheck(index: number, code: string, detail: string) {
  harness.clock.set(new Date(at(index)));
  return harness.check({
    checkId: `${site}:${index}`,
    targetId: site,
    userId: alice.userId,
    error: { code, detail, retryable: false, areaId: '' },
  });
}

beforeAll(async () => {
  harness = await startHistoryHarness();
  const suffix = randomUUID().slice(0, 8);
  alice = await harness.signedIn(`alice-${suffix}@example.com`, 'Asia/Tokyo');
  bob = await harness.signedIn(`bob-${suffix}@example.com`, 'UTC');
  const registered = await alice.browser.post('/api/v2/target/register', {
    label: 'Shop news',
    url: 'https://shop.example/news',
    interval_minutes: 60,
    screenshot: true,
    proxy: false,
    mail_notify: true,
    chat_notify: 'none',
    user_agent: { kind: 'chrome', value: '' },
    actions: [],
    areas: [
      { area_id: 'news', label: 'News', content: '', locator: { selector: '#news', selector_type: 'css' } },
    ],
    rules: {
      combine: 'or',
      groups: [
        {
          combine: 'and',
          conditions: [{ areaId: 'news', operand: 'new', operator: 'keyword', value: 'v3' }],
        },
      ],
    },
    fetch_mode: 'browser',
  });
  expect(registered.status).toBe(201);
  site = String(registered.body.target_v2_id);
  emptyOnRegistration = await alice.browser.get(`/api/v2/history?id=${site}`);
  const bobs = await bob.browser.post('/api/v2/target/register', {
    label: 'Bob',
    url: 'https://bob.example/',
    interval_minutes: 60,
    areas: [{ area_id: 'main', label: 'Main', locator: { selector: 'main' } }],
    fetch_mode: 'browser',
  });
  expect(bobs.status).toBe(201);
  bobSite = String(bobs.body.target_v2_id);

  expect((await checkWithPicture(0, 'Headline v1', 40, 40)).outcome).toBe('no_change');
  expect((await checkWithPicture(1, 'Headline v2', 240, 100)).outcome).toBe('update');
  expect((await failedCheck(2, 'unreachable', 'connection refused')).outcome).toBe('error');
  expect((await failedCheck(3, 'http_status', 'HTTP 404 from https://shop.example/news')).outcome).toBe(
    'error',
  );
  expect((await checkWithPicture(4, 'Headline v3', 100, 20)).outcome).toBe('update');
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe('site detail', () => {
  it('clears NEW when the history is opened', async () => {
    const row = async () => {
      const list = await alice.browser.get('/api/v2/targets');
      return (list.body.targets as { id: string; new: boolean; checked: string | null }[]).find(
        (candidate) => candidate.id === site,
      );
    };
    // The target service hears of the last check (an update) through checks.completed.
    for (let attempt = 0; attempt < 400; attempt++) {
      const current = await row();
      if (current?.new && current.checked === at(4)) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await row()).toMatchObject({ new: true, checked: at(4) });
    const opened = await historyOf(alice.browser, {});
    expect(opened.target).toMatchObject({
      id: site,
      new: false,
      label: 'Shop news',
      url: 'https://shop.example/news',
    });
    expect(await row()).toMatchObject({ new: false });
  });

  it('answers an empty history for a site with nothing recorded yet', () => {
    expect(emptyOnRegistration.status).toBe(200);
    expect(page(emptyOnRegistration).entries).toEqual([]);
  });

  it('lists registration, updates and errors newest first, with diff rows, matched rules and error keys', async () => {
    const history = await historyOf(alice.browser, {});
    expect(history.time_zone).toBe('Asia/Tokyo');
    expect(history.entries.map((entry) => [entry.check_id, entry.outcome, entry.checked_at])).toEqual(
      [4, 3, 2, 1, 0].map((index) => [
        `${site}:${index}`,
        ['no_change', 'update', 'error', 'error', 'update'][index],
        at(index),
      ]),
    );
    const [latest, notFound, unreachable, first, registration] = history.entries;
    expect(notFound?.error).toEqual({
      code: 'http_status',
      message_key: 'errors.http_status',
      detail: 'HTTP 404 from https://shop.example/news',
      http_status: 404,
    });
    expect(unreachable?.error).toMatchObject({ code: 'unreachable', message_key: 'errors.unreachable' });
    expect(registration).toMatchObject({ outcome: 'no_change', error: null, update: null });
    expect(first?.update).toMatchObject({ notify: false, matched: [] });
    expect(first?.update?.areas).toEqual([
      expect.objectContaining({
        area_id: 'news',
        label: 'News',
        diff_text: '- Headline v1\n+ Headline v2',
        rows: [expect.objectContaining({ kind: 'modified', changed: true })],
      }),
    ]);
    expect(latest?.update).toMatchObject({
      notify: true,
      matched: [{ area_id: 'news', operator: 'keyword', value: 'v3' }],
    });
    expect(latest?.update?.screenshots.before).toMatch(/^\/api\/v2\/screenshot\?/);
    expect(latest?.update?.screenshots.after).toMatch(/^\/api\/v2\/screenshot\?/);
  });

  it('filters updates and errors', async () => {
    const updates = await historyOf(alice.browser, { filter: 'update' });
    expect(updates.entries.map((entry) => entry.check_id)).toEqual([`${site}:4`, `${site}:1`]);
    const errors = await historyOf(alice.browser, { filter: 'error' });
    expect(errors.entries.map((entry) => entry.error?.code)).toEqual(['http_status', 'unreachable']);
  });

  it('pages older and newer', async () => {
    const ids = (history: Page) => history.entries.map((entry) => entry.check_id.split(':')[1]);
    const first = await historyOf(alice.browser, { size: '2' });
    expect([ids(first), first.newer_cursor]).toEqual([['4', '3'], null]);
    const second = await historyOf(alice.browser, { size: '2', cursor: first.older_cursor ?? '' });
    expect(ids(second)).toEqual(['2', '1']);
    const third = await historyOf(alice.browser, { size: '2', cursor: second.older_cursor ?? '' });
    expect([ids(third), third.older_cursor]).toEqual([['0'], null]);
    const back = await historyOf(alice.browser, {
      size: '2',
      cursor: third.newer_cursor ?? '',
      direction: 'newer',
    });
    expect(ids(back)).toEqual(['2', '1']);
    const bad = await alice.browser.get(`/api/v2/history?id=${site}&cursor=nonsense`);
    expect([bad.status, bad.body.error]).toMatchObject([400, { code: 'invalid_argument', field: 'cursor' }]);
  });

  it("shows one day in the user's time zone", async () => {
    const ids = (history: Page) => history.entries.map((entry) => entry.check_id.split(':')[1]);
    expect(ids(await historyOf(alice.browser, { day: '2026-11-20' }))).toEqual(['2', '1', '0']);
    expect(ids(await historyOf(alice.browser, { day: '2026-11-21' }))).toEqual(['4', '3']);
    await alice.browser.post('/api/account/update', { user_id: alice.userId, timezone: 'UTC' });
    try {
      expect(ids(await historyOf(alice.browser, { day: '2026-11-20' }))).toEqual(['4', '3', '2', '1', '0']);
    } finally {
      await alice.browser.post('/api/account/update', { user_id: alice.userId, timezone: 'Asia/Tokyo' });
    }
    const bad = await alice.browser.get(`/api/v2/history?id=${site}&day=20-11-2026`);
    expect([bad.status, bad.body.error]).toMatchObject([400, { field: 'day' }]);
  });

  it('gives the data at registration', async () => {
    const response = await alice.browser.get(`/api/v2/registration_data?id=${site}`);
    expect(response.status).toBe(200);
    const data = response.body as {
      target: { label: string };
      areas: { area_id: string; label: string; text: string; recorded_at: string; screenshot: string }[];
    };
    expect(data.target.label).toBe('Shop news');
    expect(data.areas).toEqual([
      {
        area_id: 'news',
        label: 'News',
        text: 'Headline v1',
        recorded_at: at(0),
        screenshot: expect.any(String),
      },
    ]);
    const picture = await fetchImage(alice.browser, data.areas[0]?.screenshot ?? '');
    expect([picture.status, picture.headers['content-type']]).toEqual([200, 'image/png']);
    expect(picture.bytes.equals(squarePicture(40, 40))).toBe(true);
  });

  it("serves an update's before/after pictures to their owner only", async () => {
    const history = await historyOf(alice.browser, { filter: 'update' });
    const screenshots = history.entries[0]?.update?.screenshots;
    for (const url of [screenshots?.before ?? '', screenshots?.after ?? '']) {
      const picture = await fetchImage(alice.browser, url);
      expect(picture.status).toBe(200);
      expect(picture.headers['content-type']).toBe('image/webp');
      expect(picture.headers['cache-control']).toMatch(/^private, /);
      expect(picture.bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');
      expect((await fetchImage(bob.browser, url)).status).toBe(404);
    }
    const after = new URL(screenshots?.after ?? '', 'http://gateway');
    const elsewhere = (change: Record<string, string>) => {
      const query = new URLSearchParams(after.searchParams);
      for (const [name, value] of Object.entries(change)) query.set(name, value);
      return `/api/v2/screenshot?${query}`;
    };
    // Bob naming his own site with Alice's update finds nothing in his history.
    expect((await fetchImage(bob.browser, elsewhere({ id: bobSite }))).status).toBe(404);
    expect((await fetchImage(alice.browser, elsewhere({ update: randomUUID() }))).status).toBe(404);
    expect((await fetchImage(alice.browser, elsewhere({ day: '2026-11-22' }))).status).toBe(404);
    expect((await fetchImage(alice.browser, elsewhere({ image: 'sideways' }))).status).toBe(400);
  });

  it("keeps every route to the caller's own sites", async () => {
    for (const path of [
      `/api/v2/history?id=${site}`,
      `/api/v2/registration_data?id=${site}`,
      `/api/history?id=${site}`,
      `/api/registration_data?id=${site}`,
      `/api/v2/screenshot?id=${site}&image=registration_page`,
      `/api/v2/screenshot?id=${site}&image=registration_area&area=news`,
    ]) {
      const response = await bob.browser.get(path);
      expect([path, response.status, response.body.error]).toEqual([
        path,
        404,
        { code: 'not_found', message_key: 'errors.not_found' },
      ]);
    }
    // Alice's site is a v2 site: the v1 history does not show it.
    expect((await alice.browser.get(`/api/history?id=${site}`)).status).toBe(404);
    const own = await bob.browser.get(`/api/v2/history?id=${bobSite}`);
    expect([own.status, page(own).entries]).toEqual([200, []]);
  });

  it('shows the history of a v1 (whole-page) site', async () => {
    const imported = await alice.browser.post('/api/v1/import', { text: 'https://whole.example/page\n' });
    const v1 = (imported.body.imported as { id: string }[])[0]?.id ?? '';
    harness.clock.set(new Date(at(5)));
    await harness.check({
      checkId: `${v1}:0`,
      targetId: v1,
      userId: alice.userId,
      error: { code: 'timeout', detail: 'page load over 30 s', retryable: true, areaId: '' },
    });
    const response = await alice.browser.get(`/api/history?id=${v1}`);
    expect(response.status).toBe(200);
    expect(page(response).target).toMatchObject({ id: v1, url: 'https://whole.example/page' });
    expect(page(response).entries.map((entry) => entry.error?.message_key)).toEqual(['errors.timeout']);
    expect((await alice.browser.get(`/api/v2/history?id=${v1}`)).status).toBe(404);
    expect((await bob.browser.get(`/api/history?id=${v1}`)).status).toBe(404);
  });

  it("counts the account's own storage: its rows and the bytes of the pictures they keep", async () => {
    const storage = async (browser: TestBrowser) => {
      const response = await browser.get(`/api/account/storage?user_id=${alice.userId}`);
      expect(response.status).toBe(200);
      return response.body as { used_bytes: number; row_bytes: number; blob_bytes: number };
    };
    const { rows } = await harness.db.query<{ key: string }>(
      `SELECT DISTINCT key FROM (
         SELECT screenshot_blob_key AS key FROM diff.area_versions WHERE user_id = $1
         UNION ALL SELECT page_screenshot_blob_key FROM diff.area_versions WHERE user_id = $1
         UNION ALL SELECT before_screenshot_blob_key FROM diff.updates WHERE user_id = $1
         UNION ALL SELECT after_screenshot_blob_key FROM diff.updates WHERE user_id = $1
       ) keys WHERE key <> ''`,
      [alice.userId],
    );
    let pictureBytes = 0;
    for (const { key } of rows) pictureBytes += (await harness.blobs.get(key))?.data.byteLength ?? 0;
    const own = await storage(alice.browser);
    expect(rows.length).toBeGreaterThan(0);
    expect(own.blob_bytes).toBe(pictureBytes);
    expect(own.row_bytes).toBeGreaterThan(0);
    expect(own.used_bytes).toBe(own.row_bytes + own.blob_bytes);
    // Bob names Alice in the query: he still reads only his own (nothing recorded).
    expect(await storage(bob.browser)).toEqual({ used_bytes: 0, row_bytes: 0, blob_bytes: 0 });
  });

  it('answers 401 when signed out', async () => {
    const visitor = new TestBrowser(harness.gateway.app);
    for (const path of [
      `/api/v2/history?id=${site}`,
      `/api/history?id=${site}`,
      `/api/v2/registration_data?id=${site}`,
      `/api/v2/screenshot?id=${site}&image=registration_page`,
      '/api/account/storage',
    ]) {
      const response = await visitor.get(path);
      expect([path, response.status, response.body.error]).toEqual([
        path,
        401,
        { code: 'unauthenticated', message_key: 'errors.unauthenticated' },
      ]);
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes every site-detail route the gateway serves', async () => {
    const document = await expectEveryApiRouteDescribed(harness.gateway.app);
    for (const path of [
      '/api/history',
      '/api/v2/history',
      '/api/registration_data',
      '/api/v2/registration_data',
      '/api/v2/screenshot',
      '/api/account/storage',
    ]) {
      expect(document.paths[path]?.get, path).toBeDefined();
    }
  });
});
