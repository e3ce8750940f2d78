import { afterEach, describe, expect, it } from 'vitest';
import { tdnetSource } from '../../src/clients/tdnet-source.ts';
import { fixture, type ReplayServer, startReplayServer } from '../replay-server.ts';
import { TEST_USER_AGENT, testHttp } from './source-test-http.ts';

// 2026-06-10 16:00 JST.
const NOW = new Date('2026-06-10T07:00:00Z');
const html = (name: string) => ({ contentType: 'text/html; charset=UTF-8', body: fixture(`tdnet/${name}`) });

describe('TDnet adapter', () => {
  let server: ReplayServer;
  afterEach(() => server.close());

  it("asks for today's day list in Japan and the pages its pager names, as the site lays them out", async () => {
    server = await startReplayServer((request) => {
      if (request.path === '/inbs/I_list_001_20260610.html') return html('I_list_001_20260610.html');
      if (request.path === '/inbs/I_list_002_20260610.html') return html('I_list_002_20260610.html');
      return undefined;
    });
    const source = tdnetSource(testHttp('tdnet'), `${server.url}/inbs/`);
    await source.list(['7203'], NOW);
    expect(server.requests.map((request) => [request.method, request.path])).toEqual([
      ['GET', '/inbs/I_list_001_20260610.html'],
      ['GET', '/inbs/I_list_002_20260610.html'],
    ]);
    expect(server.requests[0]?.headers['user-agent']).toBe(TEST_USER_AGENT);
  });

  it('reads the day in Japan, and just after midnight the day before too, so the last rows are not lost', async () => {
    server = await startReplayServer((request) => {
      if (request.path === '/inbs/I_list_001_20260611.html') return html('empty-day.html');
      return request.path.startsWith('/inbs/I_list_00') ? html(request.path.slice(6)) : undefined;
    });
    // 00:30 JST on the 11th is still the 10th in UTC.
    const filings = await tdnetSource(testHttp('tdnet'), `${server.url}/inbs/`).list(
      ['7203'],
      new Date('2026-06-10T15:30:00Z'),
    );
    expect(server.requests.map((request) => request.path)).toEqual([
      '/inbs/I_list_001_20260611.html',
      '/inbs/I_list_001_20260610.html',
      '/inbs/I_list_002_20260610.html',
    ]);
    expect(filings.map((filing) => filing.key)).toEqual(['140120260610512345', '140120260610500001']);
  });

  it('reads rows of followed codes across pages, alphanumeric codes included', async () => {
    server = await startReplayServer((request) =>
      request.path.startsWith('/inbs/I_list_00') ? html(request.path.slice(6)) : undefined,
    );
    const filings = await tdnetSource(testHttp('tdnet'), `${server.url}/inbs/`).list(['7203', '130A'], NOW);
    expect(filings).toEqual([
      {
        source: 'tdnet',
        key: '140120260610512345',
        companyCode: '7203',
        companyName: 'トヨタ',
        title: '2027年3月期 第1四半期決算短信〔IFRS〕（連結）',
        documentUrl: `${server.url}/inbs/140120260610512345.pdf`,
        publishedAt: new Date('2026-06-10T06:30:00Z'),
      },
      expect.objectContaining({
        key: '140120260610512001',
        companyCode: '130A',
        title: '剰余金の配当に関するお知らせ',
      }),
      expect.objectContaining({
        key: '140120260610500001',
        companyCode: '7203',
        publishedAt: new Date('2026-06-09T23:05:00Z'),
      }),
    ]);
  });

  it('asks page 1 with If-Modified-Since and, on 304, reads nothing more and answers the same rows', async () => {
    const lastModified = 'Wed, 10 Jun 2026 06:30:00 GMT';
    server = await startReplayServer((request) => {
      if (
        request.path === '/inbs/I_list_001_20260610.html' &&
        request.headers['if-modified-since'] === lastModified
      )
        return { status: 304, body: '' };
      if (!request.path.startsWith('/inbs/I_list_00')) return undefined;
      return { ...html(request.path.slice(6)), headers: { 'last-modified': lastModified } };
    });
    const source = tdnetSource(testHttp('tdnet'), `${server.url}/inbs/`);
    const first = await source.list(['7203'], NOW);
    server.requests.length = 0;
    expect(await source.list(['7203'], NOW)).toEqual(first);
    expect(server.requests.map((request) => [request.path, request.headers['if-modified-since']])).toEqual([
      ['/inbs/I_list_001_20260610.html', lastModified],
    ]);
  });

  it('reads an empty day as no filings, but a page without list or date as an error', async () => {
    server = await startReplayServer(() => html('empty-day.html'));
    const source = tdnetSource(testHttp('tdnet'), `${server.url}/inbs/`);
    await expect(source.list(['7203'], NOW)).resolves.toEqual([]);
    server.answer(() => html('maintenance.html'));
    await expect(source.list(['7203'], NOW)).rejects.toMatchObject({ source: 'tdnet', kind: 'bad_answer' });
  });

  it('reports a day outside the window (404) and a server error as unavailable, not as no filings', async () => {
    server = await startReplayServer(() => undefined);
    const source = tdnetSource(testHttp('tdnet'), `${server.url}/inbs/`);
    await expect(source.list(['7203'], NOW)).rejects.toMatchObject({ kind: 'unavailable' });
    server.answer(() => ({ status: 503, body: 'busy' }));
    await expect(source.list(['7203'], NOW)).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
