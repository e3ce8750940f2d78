import { afterEach, describe, expect, it } from 'vitest';
import { fetchSecTickers, secSource } from '../../src/clients/sec-source.ts';
import { fixture, type ReplayServer, startReplayServer } from '../replay-server.ts';
import { TEST_USER_AGENT, testHttp } from './source-test-http.ts';

const json = (name: string) => ({ contentType: 'application/json', body: fixture(`sec/${name}`) });

describe('SEC adapter', () => {
  let server: ReplayServer;
  afterEach(() => server.close());

  it('asks submissions by zero-padded CIK and the tickers file, with a User-Agent that names a contact', async () => {
    server = await startReplayServer((request) => {
      if (request.path === '/submissions/CIK0000320193.json') return json('submissions-CIK0000320193.json');
      if (request.path === '/files/company_tickers.json') return json('company_tickers.json');
      return undefined;
    });
    const urls = { www: server.url, data: server.url };
    await secSource(testHttp('sec'), urls).list(['320193'], new Date());
    await fetchSecTickers(testHttp('sec'), urls.www);
    expect(server.requests.map((request) => request.path)).toEqual([
      '/submissions/CIK0000320193.json',
      '/files/company_tickers.json',
    ]);
    for (const request of server.requests) {
      expect(request.headers['user-agent']).toBe(TEST_USER_AGENT);
      expect(request.headers['user-agent']).toMatch(/\S+@\S+\.\S+/);
    }
  });

  it('reads the parallel arrays of filings.recent into filings keyed by accession number', async () => {
    server = await startReplayServer(() => json('submissions-CIK0000320193.json'));
    const filings = await secSource(testHttp('sec'), { www: 'https://www.sec.test', data: server.url }).list(
      ['320193'],
      new Date(),
    );
    expect(filings.map((filing) => filing.key)).toEqual([
      '0000320193-26-000070',
      '0000320193-26-000064',
      '0000320193-25-000079',
    ]);
    expect(filings[0]).toEqual({
      source: 'sec',
      key: '0000320193-26-000070',
      companyCode: '320193',
      companyName: 'Apple Inc.',
      title: '8-K',
      documentUrl: 'https://www.sec.test/Archives/edgar/data/320193/000032019326000070/aapl-20260609.htm',
      publishedAt: new Date('2026-06-10T16:30:21.000Z'),
    });
  });

  it('reads the tickers file with its numeric cik_str', async () => {
    server = await startReplayServer(() => json('company_tickers.json'));
    expect(await fetchSecTickers(testHttp('sec'), server.url)).toEqual([
      { cik: '320193', ticker: 'AAPL', name: 'Apple Inc.' },
      { cik: '789019', ticker: 'MSFT', name: 'MICROSOFT CORP' },
      { cik: '1018724', ticker: 'AMZN', name: 'AMAZON COM INC' },
    ]);
  });

  it('recognises the 403 threshold page and 429 as rate limiting, a plain 403 as a refusal', async () => {
    server = await startReplayServer(() => ({
      status: 403,
      contentType: 'text/html',
      body: fixture('sec/rate-threshold.html'),
    }));
    const source = secSource(testHttp('sec'), { www: server.url, data: server.url });
    await expect(source.list(['320193'], new Date())).rejects.toMatchObject({
      source: 'sec',
      kind: 'rate_limited',
    });
    server.answer(() => ({ status: 429, body: 'Too Many Requests' }));
    await expect(source.list(['320193'], new Date())).rejects.toMatchObject({ kind: 'rate_limited' });
    server.answer(() => ({
      status: 403,
      contentType: 'text/html',
      body: fixture('sec/undeclared-403.html'),
    }));
    await expect(source.list(['320193'], new Date())).rejects.toMatchObject({ kind: 'refused' });
  });
});
