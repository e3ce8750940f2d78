import { randomUUID } from 'node:crypto';
import { type AtomFeed, parseAtomFeed, parseRssFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../accounts/test-browser.ts';
import { type HistoryHarness, startHistoryHarness } from './history-harness.ts';
import { squarePicture } from './square-picture.ts';

let harness: HistoryHarness;
let alice: { browser: TestBrowser; userId: string };
let bob: { browser: TestBrowser; userId: string };
let site: string;
let quiet: string;
let bobSite: string;
let feeds: { atom_url: string; rss_url: string; site_atom_url: string };
const updateIds: string[] = [];

const START = Date.parse('2026-11-20T14:00:00Z');
const at = (index: number) => new Date(START + index * 20 * 60_000);

/** A feed URL's path, as the gateway (answering inject requests) is asked for it: no cookie, no header. */
async function read(url: string) {
  const { pathname, search } = new URL(url);
  const response = await harness.gateway.app.inject({ method: 'GET', url: pathname + search });
  return {
    status: response.statusCode,
    type: String(response.headers['content-type']),
    body: response.body,
    raw: response.rawPayload,
  };
}

function registration(label: string, url: string) {
  return {
    label,
    url,
    interval_minutes: 60,
    screenshot: true,
    areas: [{ area_id: 'news', label: 'News', locator: { selector: '#news', selector_type: 'css' } }],
    fetch_mode: 'browser',
  };
}

async function check(targetId: string, userId: string, index: number, text: string) {
  harness.clock.set(at(index));
  const screenshotBlobKey = `screenshots/${targetId}/c${index}/news.png`;
  await harness.blobs.put(screenshotBlobKey, squarePicture(20 + index * 30, 40), {
    contentType: 'image/png',
  });
  const area = {
    areaId: 'news',
    found: true,
    html: '',
    text,
    htmlBlobKey: '',
    textBlobKey: '',
    screenshotBlobKey,
  };
  return harness.check({ checkId: `${targetId}:${index}`, targetId, userId, areas: [area] });
}

beforeAll(async () => {
  harness = await startHistoryHarness();
  const suffix = randomUUID().slice(0, 8);
  alice = await harness.signedIn(`alice-${suffix}@example.com`, 'UTC');
  bob = await harness.signedIn(`bob-${suffix}@example.com`, 'UTC');
  const registered = await alice.browser.post(
    '/api/v2/target/register',
    registration('Shop <news> & more', 'https://shop.example/news'),
  );
  expect(registered.status, registered.text).toBe(201);
  site = String(registered.body.target_v2_id);
  const other = await alice.browser.post(
    '/api/v2/target/register',
    registration('Quiet page', 'https://quiet.example/'),
  );
  quiet = String(other.body.target_v2_id);
  const bobs = await bob.browser.post('/api/v2/target/register', registration('Bob', 'https://bob.example/'));
  bobSite = String(bobs.body.target_v2_id);
  expect((await check(site, alice.userId, 0, 'Headline v1')).outcome).toBe('no_change');
  for (const [index, text] of [
    [1, 'Headline v2'],
    [2, 'Headline v3 <b>bold</b>'],
  ] as const) {
    const judged = await check(site, alice.userId, index, text);
    expect(judged.outcome).toBe('update');
    updateIds.push(String(judged.update_id));
  }
  expect((await check(bobSite, bob.userId, 0, 'Bob v1')).outcome).toBe('no_change');
  expect((await check(bobSite, bob.userId, 1, 'Bob v2')).outcome).toBe('update');
  const answer = await alice.browser.get('/api/feeds');
  expect(answer.status, answer.text).toBe(200);
  feeds = answer.body as typeof feeds;
}, 90_000);

afterAll(async () => {
  await harness?.close();
});

describe('feeds', () => {
  it('gives the account feed URLs holding a secret token, the same on each ask', async () => {
    expect(feeds.atom_url).toMatch(/\/feeds\/[\w-]{32}\/atom\.xml$/);
    expect(feeds.rss_url).toBe(feeds.atom_url.replace('atom.xml', 'rss.xml'));
    expect(feeds.site_atom_url).toBe(feeds.atom_url.replace('atom.xml', 'sites/{target_id}/atom.xml'));
    expect((await alice.browser.get('/api/feeds')).body).toEqual(feeds);
    expect((await bob.browser.get('/api/feeds')).body.atom_url).not.toBe(feeds.atom_url);
  });

  it('serves the account’s updates as Atom, newest first, each with its diff, history link and after picture', async () => {
    const answer = await read(feeds.atom_url);
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('application/atom+xml');
    const feed = parseAtomFeed(answer.body) as AtomFeed.Feed<string>;
    expect(feed.id).toMatch(/^urn:mimamori:feed:/);
    expect(feed.title?.value).toBe('Mimamori: updates of every site');
    expect(feed.updated).toBe(at(2).toISOString());
    expect(feed.links).toContainEqual(expect.objectContaining({ rel: 'self', href: feeds.atom_url }));
    // Bob's update and the quiet site's nothing are not in it.
    expect(feed.entries?.map((entry) => entry.id)).toEqual(
      [...updateIds].reverse().map((id) => `urn:mimamori:update:${id}`),
    );
    const [newest] = feed.entries ?? [];
    expect(newest?.title?.value).toBe('“v2” → “v3 <b>bold</b>” | Shop <news> & more');
    expect(newest?.updated).toBe(at(2).toISOString());
    expect(newest?.summary?.value).toContain('Headline v3 <b>bold</b>');
    expect(newest?.summary?.value).toContain('Headline v2');
    const links = newest?.links ?? [];
    expect(links).toContainEqual(
      expect.objectContaining({ rel: 'alternate', href: `http://localhost/target2?id=${site}` }),
    );
    const picture = links.find((link) => link.rel === 'enclosure');
    expect(picture).toMatchObject({ type: 'image/webp' });
    expect(picture?.href).toContain(
      new URL(feeds.atom_url).pathname.replace('atom.xml', `sites/${site}/updates/`),
    );
    const image = await read(String(picture?.href));
    expect(image.status).toBe(200);
    expect(image.raw.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(newest?.content?.value).toContain(`<img src="${picture?.href}"`);
  });

  it('serves the same as RSS 2.0', async () => {
    const answer = await read(feeds.rss_url);
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('application/rss+xml');
    const feed = parseRssFeed(answer.body);
    expect(feed.title).toBe('Mimamori: updates of every site');
    expect(feed.items?.map((item) => item.guid?.value)).toEqual(
      [...updateIds].reverse().map((id) => `urn:mimamori:update:${id}`),
    );
    const [newest] = feed.items ?? [];
    expect(newest).toMatchObject({
      title: '“v2” → “v3 <b>bold</b>” | Shop <news> & more',
      link: `http://localhost/target2?id=${site}`,
    });
    expect(new Date(String(newest?.pubDate)).toISOString()).toBe(at(2).toISOString());
    expect(newest?.description).toContain('Headline v3 &lt;b&gt;bold&lt;/b&gt;');
    expect(newest?.enclosures?.[0]).toMatchObject({ type: 'image/webp' });
    expect((await read(String(newest?.enclosures?.[0]?.url))).status).toBe(200);
  });

  it('serves one site’s feed, empty for a site without updates, and 404 for another account’s site', async () => {
    const one = parseAtomFeed(
      (await read(feeds.site_atom_url.replace('{target_id}', site))).body,
    ) as AtomFeed.Feed<string>;
    expect(one.id).toBe(`urn:mimamori:site:${site}`);
    expect(one.entries).toHaveLength(2);
    const none = await read(feeds.site_atom_url.replace('{target_id}', quiet));
    expect(none.status).toBe(200);
    expect((parseAtomFeed(none.body) as AtomFeed.Feed<string>).entries ?? []).toEqual([]);
    expect((await read(feeds.site_atom_url.replace('{target_id}', bobSite))).status).toBe(404);
    expect((await read(feeds.site_atom_url.replace('{target_id}', 'not-a-site'))).status).toBe(404);
    expect(
      (await read(feeds.site_atom_url.replace('{target_id}', site).replace('atom.xml', 'feed.json'))).status,
    ).toBe(404);
  });

  it('answers 404 for an unknown token, and for the old URLs once the token is rotated', async () => {
    const unknown = await read(feeds.atom_url.replace(/feeds\/[\w-]+\//, 'feeds/not-the-token/'));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ error: { code: 'feed_not_found' } });
    const picture = (
      parseAtomFeed((await read(feeds.atom_url)).body) as AtomFeed.Feed<string>
    ).entries?.[0]?.links?.find((link) => link.rel === 'enclosure')?.href;
    const rotated = await alice.browser.post('/api/feeds/rotate', {});
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.atom_url).not.toBe(feeds.atom_url);
    for (const url of [feeds.atom_url, feeds.rss_url, String(picture)])
      expect((await read(url)).status, url).toBe(404);
    expect((await read(String(rotated.body.atom_url))).status).toBe(200);
  });
});
