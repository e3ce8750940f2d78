import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentReader, FetchRequest, PageFetcher } from '../src/domain/page-fetcher.ts';
import { createHttpPageFetcher } from '../src/http/index.ts';
import { type FixtureSite, serveFixtureSite } from './fixture-site.ts';

// docs/product.md#documents-and-data: documents are read over plain HTTP through the egress guard,
// as checks (FetchRequest with a content kind) and as the wizard's question (readDocument).
let site: FixtureSite;
let elsewhere: FixtureSite;
let fetcher: PageFetcher & DocumentReader;

beforeAll(async () => {
  const pdf = await readFile(new URL('./documents/ir-report-v1.pdf', import.meta.url));
  site = await serveFixtureSite((path, _incoming, response) => {
    if (path === '/ir') response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(pdf);
    else if (path === '/api')
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[{"price":1200}]}');
    else if (path === '/moved') response.writeHead(200, { 'content-type': 'text/html' }).end('<p>moved</p>');
    else response.writeHead(404).end();
  });
  elsewhere = await serveFixtureSite((_path, _incoming, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"secret":1}'),
  );
  fetcher = createHttpPageFetcher({ allow: [site.authority], attempts: 1, timeoutMs: 5_000 });
});

afterAll(async () => {
  await fetcher?.close();
  await site?.close();
  await elsewhere?.close();
});

const check = (url: string, extra: Partial<FetchRequest>) =>
  fetcher.fetch(
    { url, mode: 'http', userAgent: { kind: 'none' }, actions: [], areas: [], screenshot: 'none', ...extra },
    new AbortController().signal,
  );
const ask = (url: string, extra: Partial<Parameters<DocumentReader['readDocument']>[0]> = {}) =>
  fetcher.readDocument(
    { url, userAgent: { kind: 'none' }, areas: [], ...extra },
    new AbortController().signal,
  );

describe('documents over plain HTTP', () => {
  it('checks a JSON target: its area as lines, asking for JSON', async () => {
    const result = await check(`${site.origin}/api`, {
      contentKind: 'json',
      areas: [{ areaId: 'price', selector: '$.items[*].price', selectorType: 'jsonpath' }],
    });
    expect(result).toMatchObject({
      ok: true,
      areas: [{ areaId: 'price', found: true, text: '1200', html: '<p>1200</p>' }],
    });
    expect(site.requests.at(-1)?.headers.accept).toMatch(/^application\/json/);
  });

  it('fails a check whose document is no longer its kind, or whose area matches nothing, as element_not_found', async () => {
    expect(
      await check(`${site.origin}/moved`, {
        contentKind: 'json',
        areas: [{ areaId: 'price', selector: '$.items', selectorType: 'jsonpath' }],
      }),
    ).toMatchObject({
      ok: false,
      code: 'element_not_found',
      areaId: 'price',
      detail: expect.stringContaining('not valid JSON'),
    });
    expect(
      await check(`${site.origin}/api`, {
        contentKind: 'json',
        areas: [{ areaId: 'stock', selector: '$.items[*].stock', selectorType: 'jsonpath' }],
      }),
    ).toMatchObject({ ok: false, code: 'element_not_found', areaId: 'stock' });
  });

  it('tells the wizard what a URL serves, and what candidate areas read', async () => {
    const pdf = await ask(`${site.origin}/ir`);
    expect(pdf).toMatchObject({ ok: true, detectedKind: 'pdf', contentKind: 'pdf', moreLines: false });
    expect(pdf.ok && pdf.lines[0]).toBe('2026年度 決算短信');
    expect(
      await ask(`${site.origin}/ir`, {
        contentKind: 'pdf',
        areas: [
          { areaId: '0', selector: '配当予想', selectorType: 'text' },
          { areaId: '1', selector: '9', selectorType: 'pages' },
          { areaId: '2', selector: '9-1', selectorType: 'pages' },
        ],
      }),
    ).toMatchObject({
      ok: true,
      areas: [
        { found: true, text: '配当予想：1株当たり1,200円' },
        { found: false, text: '' },
        { found: false, problem: 'selector_invalid' },
      ],
    });
    // A page is only detected: the wizard opens it in the browser.
    expect(await ask(`${site.origin}/moved`)).toMatchObject({
      ok: true,
      detectedKind: 'page',
      contentKind: 'page',
      lines: [],
    });
    expect(await ask(`${site.origin}/gone`)).toMatchObject({ ok: false, code: 'http_status' });
  });

  it('goes through the egress guard: an address it does not allow is refused, as a check and as a question', async () => {
    expect(await ask(`${elsewhere.origin}/api`)).toMatchObject({ ok: false, code: 'refused_address' });
    expect(
      await check(`${elsewhere.origin}/api`, {
        contentKind: 'json',
        areas: [{ areaId: 'a', selector: '$', selectorType: 'jsonpath' }],
      }),
    ).toMatchObject({ ok: false, code: 'refused_address' });
    expect(elsewhere.requests).toEqual([]);
  });
});
