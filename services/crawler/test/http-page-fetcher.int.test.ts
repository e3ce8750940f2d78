import { fileURLToPath } from 'node:url';
import { runInLoopbackNamespace } from '@mimamori/egress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchRequest, FetchResult, PageFetcher } from '../src/domain/page-fetcher.ts';
import { createHttpPageFetcher } from '../src/http/index.ts';
import { type FixtureSite, JAPANESE_NEWS, startFixtureSite } from './fixture-site.ts';
import { startTinyproxy, type TinyproxyFixture } from './tinyproxy-fixture.ts';

let site: FixtureSite;
let notAllowed: FixtureSite;
let fetcher: PageFetcher;

beforeAll(async () => {
  notAllowed = await startFixtureSite();
  site = await startFixtureSite({ loopback: `${notAllowed.origin}/static` });
  fetcher = createHttpPageFetcher({
    allow: [site.authority],
    timeoutMs: 1_500,
    attempts: 2,
    retryDelayMs: 10,
    maxBytes: 1_048_576,
  });
});

afterAll(async () => {
  await fetcher?.close();
  await site?.close();
  await notAllowed?.close();
});

const newsArea = { areaId: 'news', selector: '#news .item', selectorType: 'css' as const };

function check(path: string, extra: Partial<FetchRequest> = {}): Promise<FetchResult> {
  return fetcher.fetch(
    {
      url: `${site.origin}${path}`,
      mode: 'http',
      userAgent: { kind: 'chrome' },
      actions: [],
      areas: [newsArea],
      screenshot: 'none',
      ...extra,
    },
    new AbortController().signal,
  );
}

const failure = (result: FetchResult) =>
  result.ok ? { ok: true } : { code: result.code, detail: result.detail, retryable: result.retryable };

describe('HTTP page fetcher against fixture pages', () => {
  it('extracts an area of a static page by CSS selector and XPath', async () => {
    const result = await check('/static', {
      areas: [newsArea, { areaId: 'heading', selector: '//div[@id="news"]/h2', selectorType: 'xpath' }],
    });
    expect(result).toMatchObject({ ok: true, status: 200, finalUrl: `${site.origin}/static` });
    expect(result.ok && result.areas).toEqual([
      { areaId: 'news', found: true, html: `<p class="item">${JAPANESE_NEWS}</p>`, text: JAPANESE_NEWS },
      { areaId: 'heading', found: true, html: '<h2>お知らせ</h2>', text: 'お知らせ' },
    ]);
  });

  it.each([
    '/utf8-undeclared',
    '/sjis',
    '/sjis-meta',
    '/sjis-undeclared',
    '/eucjp',
    '/eucjp-undeclared',
    '/iso2022jp',
    '/iso2022jp-undeclared',
  ])('decodes %s', async (path) => {
    const result = await check(path);
    expect(result.ok && result.areas[0]?.text).toBe(JAPANESE_NEWS);
  });

  it('reads an area inside an iframe from the iframe’s own document', async () => {
    const result = await check('/with-frame', {
      areas: [
        {
          areaId: 'prices',
          selector: '#list',
          selectorType: 'css',
          frame: { selector: '#prices', selectorType: 'css' },
        },
      ],
    });
    expect(result.ok && result.areas[0]?.text).toBe('りんご 120円');
    expect(site.requests.map(({ path }) => path)).toContain('/frame/prices');
  });

  it('sends the chosen user agent and the site’s cookies', async () => {
    const result = await check('/needs-cookie', {
      cookies: 'member=gold; theme=dark',
      userAgent: { kind: 'iphone' },
      areas: [{ areaId: 'who', selector: '#who', selectorType: 'css' }],
    });
    expect(result.ok && result.areas[0]?.text).toBe('gold member');
    expect(site.requests.findLast(({ path }) => path === '/needs-cookie')?.headers['user-agent']).toMatch(
      /iPhone/,
    );
  });

  it('asks for the page in the reader’s language, Japanese first without one', async () => {
    const accepted = async (reader?: FetchRequest['reader']) => {
      const result = await check('/echo-headers', {
        ...(reader ? { reader } : {}),
        areas: [{ areaId: 'headers', selector: '#headers', selectorType: 'css' }],
      });
      return result.ok ? JSON.parse(result.areas[0]?.text ?? '{}')['accept-language'] : undefined;
    };
    expect(await accepted({ lang: 'en', timeZone: 'America/New_York' })).toBe('en-US,en;q=0.9');
    expect(await accepted({ lang: 'ja', timeZone: '' })).toBe('ja-JP,ja;q=0.9,en;q=0.8');
    expect(await accepted()).toBe('ja,en;q=0.8');
  });

  it('follows a redirect chain, and stops a chain that is too long', async () => {
    expect(await check('/redirect/9')).toMatchObject({ ok: true, finalUrl: `${site.origin}/static` });
    expect(failure(await check('/redirect/10'))).toMatchObject({
      code: 'too_many_redirects',
      retryable: false,
    });
    expect(failure(await check('/redirect-loop'))).toMatchObject({ code: 'too_many_redirects' });
  });

  it('refuses a redirect to a loopback server that is not on the allow-list', async () => {
    const result = failure(await check('/redirect-to/loopback'));
    expect(result).toMatchObject({ code: 'refused_address', retryable: false });
    expect(result.detail).toMatch(/loopback/);
    expect(notAllowed.requests).toEqual([]);
  });

  it('gives 404 and 500 their status, retrying only the server error', async () => {
    expect(failure(await check('/missing'))).toEqual({
      code: 'http_status',
      detail: `HTTP 404 from ${site.origin}/missing`,
      retryable: false,
    });
    const before = site.requests.filter(({ path }) => path === '/broken').length;
    expect(failure(await check('/broken'))).toEqual({
      code: 'http_status',
      detail: `HTTP 500 from ${site.origin}/broken`,
      retryable: true,
    });
    expect(site.requests.filter(({ path }) => path === '/broken').length - before).toBe(2);
  });

  it('tells a robot wall apart from an unreachable site', async () => {
    expect(failure(await check('/challenge'))).toMatchObject({
      code: 'blocked_by_robot',
      detail: expect.stringContaining('Cloudflare challenge'),
    });
    const closed = await startFixtureSite();
    await closed.close();
    const gone = createHttpPageFetcher({ allow: [closed.authority], attempts: 1 });
    const result = await gone.fetch(
      {
        url: `${closed.origin}/static`,
        mode: 'http',
        userAgent: { kind: 'none' },
        actions: [],
        areas: [newsArea],
        screenshot: 'none',
      },
      new AbortController().signal,
    );
    await gone.close();
    expect(failure(result)).toMatchObject({
      code: 'unreachable',
      detail: expect.stringContaining('ECONNREFUSED'),
      retryable: true,
    });
  });

  it('names the selector of an element that is not there', async () => {
    expect(
      failure(
        await check('/static', {
          areas: [newsArea, { areaId: 'x', selector: '#price-table td', selectorType: 'css' }],
        }),
      ),
    ).toEqual({
      code: 'element_not_found',
      detail: 'element not found: CSS "#price-table td"',
      retryable: false,
    });
  });

  it('leaves login, actions and screenshots to browser mode', async () => {
    expect(failure(await check('/static', { screenshot: 'page' }))).toEqual({
      code: 'invalid_job',
      detail: 'login, actions and screenshots need browser mode',
      retryable: false,
    });
  });

  it('times out a page that never finishes', async () => {
    expect(failure(await check('/slow'))).toMatchObject({ code: 'timeout', retryable: true });
  });

  it('stops reading a page over the size cap', async () => {
    expect(failure(await check('/large'))).toMatchObject({ code: 'too_large', retryable: false });
  });

  it('caps the document and the frames it reads together', async () => {
    const inFrame = (n: number) => ({
      areaId: `f${n}`,
      selector: '#filler',
      selectorType: 'css' as const,
      frame: { selector: `#f${n}`, selectorType: 'css' as const },
    });
    expect((await check('/heavy-frames', { areas: [inFrame(1), inFrame(2)] })).ok).toBe(true);
    expect(
      failure(await check('/heavy-frames', { areas: [inFrame(1), inFrame(2), inFrame(3)] })),
    ).toMatchObject({
      code: 'too_large',
      detail: expect.stringContaining('frames'),
      retryable: false,
    });
  });
});

describe('HTTP page fetcher through a real proxy (tinyproxy)', () => {
  let proxy: TinyproxyFixture;
  beforeAll(async () => {
    proxy = await startTinyproxy();
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('fetches through the proxy and still refuses targets the guard refuses', async () => {
    const result = await check('/echo-headers', {
      proxyUrl: proxy.url,
      areas: [{ areaId: 'headers', selector: '#headers', selectorType: 'css' }],
    });
    expect(result.ok && JSON.parse(result.areas[0]?.text ?? '{}')).toMatchObject({
      host: site.authority,
    });
    // Through a tunnel to the checked address: the proxy resolves nothing itself.
    expect(proxy.asked).toEqual([`CONNECT ${site.authority} HTTP/1.1`]);
    const refused = await fetcher.fetch(
      {
        url: `${notAllowed.origin}/static`,
        mode: 'http',
        userAgent: { kind: 'none' },
        actions: [],
        areas: [newsArea],
        screenshot: 'none',
        proxyUrl: proxy.url,
      },
      new AbortController().signal,
    );
    expect(failure(refused)).toMatchObject({ code: 'refused_address' });
    expect(notAllowed.requests).toEqual([]);
    expect(proxy.asked).toHaveLength(1);
  });
});

describe('redirects to the metadata service and private networks (loopback-only network namespace)', () => {
  it('refuses every hop, with those addresses really served on loopback', async () => {
    const run = await runInLoopbackNamespace({
      script: fileURLToPath(new URL('./refused-redirect-probe.ts', import.meta.url)),
      addresses: ['169.254.169.254/32', '10.0.0.1/32'],
      hosts: { 'metadata.test': '169.254.169.254' },
    });
    expect(run.stderr).toBe('');
    const outcomes = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { target: string; result: FetchResult });
    expect(outcomes.map(({ target, result }) => [target, failure(result)])).toEqual([
      [
        'metadata',
        { code: 'refused_address', detail: expect.stringContaining('169.254.169.254'), retryable: false },
      ],
      ['private', { code: 'refused_address', detail: expect.stringContaining('10.0.0.1'), retryable: false }],
      [
        'name',
        { code: 'refused_address', detail: expect.stringContaining('metadata.test'), retryable: false },
      ],
      [
        'mapped',
        { code: 'refused_address', detail: expect.stringContaining('169.254.169.254'), retryable: false },
      ],
    ]);
  });
});
