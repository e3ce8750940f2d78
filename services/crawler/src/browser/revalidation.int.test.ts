import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSite, serveFixtureSite } from '../../test/fixture-site.ts';
import {
  type CorpusPage,
  type CorpusSite,
  corpusCheckRequest,
  startCorpusSite,
} from '../../test/revalidation-corpus.ts';
import type { FetchRequest, PageFetcher } from '../domain/page-fetcher.ts';
import { parseRevalidationState } from '../domain/revalidation.ts';
import { createBrowserPageFetcher } from './browser-page-fetcher.ts';
import { createBrowserPool } from './browser-pool.ts';

// One browser for the whole corpus, pages checked six at a time; the product's clock is a
// variable, so the revalidation's time limit is crossed without waiting for it.
let site: CorpusSite;
let fetcher: PageFetcher;
let clock = Date.UTC(2026, 11, 6, 12);
/** The draws of the checks to come; 0.5 (no forced render) when none are queued. */
const draws: number[] = [];

beforeAll(async () => {
  site = await startCorpusSite();
  const allow = [site.authority];
  fetcher = createBrowserPageFetcher({
    pool: createBrowserPool({ allow, pagesPerBrowser: 6 }),
    allow,
    limits: { loadTimeoutMs: 5_000, settleTimeoutMs: 5_000, quietMs: 200, busyQuietMs: 1_000 },
    revalidation: { renderEvery: 10, maxAgeMs: 60 * 60_000 },
    now: () => clock,
    draw: () => draws.shift() ?? 0.5,
  });
});

afterAll(async () => {
  await fetcher?.close();
  await site?.close();
});

function requestFor(page: CorpusPage, revalidation?: string): FetchRequest {
  return corpusCheckRequest(site.origin, page, revalidation);
}

async function check(page: CorpusPage, revalidation?: string, targetId?: string) {
  const request = { ...requestFor(page, revalidation), ...(targetId ? { targetId } : {}) };
  const result = await fetcher.fetch(request, new AbortController().signal);
  if (!result.ok) throw new Error(`${page.name}: ${result.code} ${result.detail}`);
  // A lazy image's version is in its address, not in any text.
  const area = result.areas[0];
  return {
    text: page.inHtml ? (area?.html ?? '') : (area?.text ?? ''),
    rendered: result.rendered,
    revalidation: result.revalidation,
  };
}

/** Runs `work` over `items`, `width` at a time. */
async function inTurns<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let at = 0; at < items.length; at += width) {
    results.push(...(await Promise.all(items.slice(at, at + width).map(work))));
  }
  return results;
}

describe('revalidating before rendering', () => {
  it('reports every change in the corpus, and renders only where the page needs it', async () => {
    expect(site.pages.length).toBeGreaterThanOrEqual(30);
    const outcomes = await inTurns(site.pages, 6, async (page) => {
      const first = await check(page);
      const before = `V${site.version(page.name)}`;
      const second = await check(page, first.revalidation);
      site.change(page.name);
      // A check answered over HTTP leaves nothing new: the first render's state is still kept.
      const third = await check(page, second.revalidation ?? first.revalidation);
      const after = `V${site.version(page.name)}`;
      const state = parseRevalidationState(third.revalidation);
      return {
        name: page.name,
        first: first.text.includes(before),
        second: second.text.includes(before),
        shortcut: second.rendered === false,
        expected: page.shortcut,
        reported: third.text.includes(after) && !third.text.includes(before),
        thirdRendered: third.rendered,
        kept: state
          ? state.volatile
            ? 'volatile'
            : (state.unfit ?? (state.verified ? 'verified' : 'unverified'))
          : 'none',
        text: third.text,
      };
    });
    // One table, so a failure names every page that went wrong at once.
    const wrong = outcomes.filter(
      (outcome) =>
        !outcome.first ||
        !outcome.second ||
        !outcome.reported ||
        outcome.shortcut !== outcome.expected ||
        !outcome.thirdRendered,
    );
    expect(wrong).toEqual([]);
    // Three checks of 30-odd pages, six at a time: under a minute on an idle 2-core machine, more
    // when it is shared.
  }, 180_000);

  it('renders again on the checks drawn for it, and after the time limit', async () => {
    const page = site.pages.find((candidate) => candidate.name === 'fetch-json') as CorpusPage;
    const state = (await check(page)).revalidation;
    const rendered: (boolean | undefined)[] = [];
    draws.push(0.5, 0.99, 0.05, 0.5);
    for (let n = 0; n < 4; n++) {
      const next = await check(page, state);
      rendered.push(next.rendered);
      // A shortcut leaves nothing new to keep, nor does a drawn render that read the same from
      // the same answers (ADR 0032).
      expect(next.revalidation).toBeUndefined();
    }
    // A draw under a tenth renders; the others are answered over HTTP.
    expect(rendered).toEqual([false, false, true, false]);
    clock += 60 * 60_000;
    const late = await check(page, state);
    expect(late.rendered).toBe(true);
    // The render's time is kept: the limit counts from it.
    expect(parseRevalidationState(late.revalidation)?.renderedAt).toBe(clock);
  });

  it('answers a check queued before the site’s last render kept its state from the newest one it made', async () => {
    const page = site.pages.find((candidate) => candidate.name === 'fetch-json') as CorpusPage;
    const first = await check(page, undefined, 'queued-site');
    expect(first.rendered).toBe(true);
    // Dispatched before the first check's state was kept: it carries none.
    const second = await check(page, undefined, 'queued-site');
    expect(second).toMatchObject({ rendered: false, revalidation: undefined });
    expect(second.text).toContain(`V${site.version(page.name)}`);
    site.change(page.name);
    clock += 60_000;
    const third = await check(page, first.revalidation, 'queued-site');
    expect(third.rendered).toBe(true);
    // Carries the first render's state, older than the third's: the newer answers stand.
    const fourth = await check(page, first.revalidation, 'queued-site');
    expect(fourth).toMatchObject({ rendered: false, revalidation: undefined });
    expect(fourth.text).toContain(`V${site.version(page.name)}`);
    // Nothing remembered serves another site, nor the same site without its name.
    expect((await check(page, undefined, 'other-site')).rendered).toBe(true);
    expect((await check(page)).rendered).toBe(true);
  });

  it('asks again only through the egress guard: a recorded address it refuses renders the page', async () => {
    const elsewhere: FixtureSite = await serveFixtureSite((_path, _incoming, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"t":"data V1"}');
    });
    try {
      const page = site.pages.find((candidate) => candidate.name === 'fetch-json') as CorpusPage;
      const first = await check(page);
      const state = parseRevalidationState(first.revalidation);
      if (!state) throw new Error('no state kept');
      // The data request now names a loopback server the guard does not let through.
      const moved = state.requests.map((request) =>
        request.kind === 'fetch' ? { ...request, url: `${elsewhere.origin}/c/fetch-json/data` } : request,
      );
      const again = await check(page, JSON.stringify({ ...state, requests: moved }));
      expect(again.rendered).toBe(true);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});
