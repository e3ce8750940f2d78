import { afterEach, describe, expect, it } from 'vitest';
import { globeNewswireSource } from '../../src/clients/globenewswire-source.ts';
import { fixture, type ReplayServer, startReplayServer } from '../replay-server.ts';
import { TEST_USER_AGENT, testHttp } from './source-test-http.ts';

const rss = (name: string) => ({
  contentType: 'application/rss+xml; charset=utf-8',
  body: fixture(`globenewswire/${name}`),
});

describe('GlobeNewswire adapter', () => {
  let server: ReplayServer;
  afterEach(() => server.close());

  it('asks the keyword feed for the ISIN', async () => {
    server = await startReplayServer(() => rss('keyword-US0378331005.xml'));
    await globeNewswireSource(testHttp('globenewswire'), server.url).list(['US0378331005'], new Date());
    expect(server.requests.map((request) => [request.method, request.path])).toEqual([
      ['GET', '/RssFeed/keyword/US0378331005'],
    ]);
    expect(server.requests[0]?.headers['user-agent']).toBe(TEST_USER_AGENT);
  });

  it('keeps only releases whose ISIN category is the followed ISIN, whatever the dc namespace', async () => {
    server = await startReplayServer(() => rss('keyword-US0378331005.xml'));
    const source = globeNewswireSource(testHttp('globenewswire'), server.url);
    expect(await source.list(['US0378331005'], new Date())).toEqual([
      {
        source: 'globenewswire',
        key: '3101234',
        companyCode: 'US0378331005',
        companyName: 'Apple Inc.',
        title: 'Apple announces results',
        documentUrl:
          'https://www.globenewswire.com/news-release/2026/06/10/3101234/0/en/Apple-announces-results.html',
        // The pubDate has no seconds.
        publishedAt: new Date('2026-06-10T20:30:00Z'),
      },
    ]);
    expect(await source.findIssuer('US0378331005')).toBe('Apple Inc.');
  });

  it('reads an empty channel as no releases and no issuer; 429 and a non-feed as errors', async () => {
    server = await startReplayServer(() => rss('empty-channel.xml'));
    const source = globeNewswireSource(testHttp('globenewswire'), server.url);
    await expect(source.list(['DE0007164600'], new Date())).resolves.toEqual([]);
    await expect(source.findIssuer('DE0007164600')).resolves.toBeUndefined();
    server.answer(() => ({ status: 429, body: 'slow down' }));
    await expect(source.findIssuer('DE0007164600')).rejects.toMatchObject({ kind: 'rate_limited' });
    server.answer(() => ({ contentType: 'text/html', body: '<html><body>Error</body></html>' }));
    await expect(source.list(['DE0007164600'], new Date())).rejects.toMatchObject({ kind: 'bad_answer' });
  });
});
