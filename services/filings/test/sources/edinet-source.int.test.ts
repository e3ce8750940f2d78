import { afterEach, describe, expect, it } from 'vitest';
import { fetchEdinetCodeList } from '../../src/clients/edinet-code-list.ts';
import { edinetSource } from '../../src/clients/edinet-source.ts';
import { fixture, type ReplayServer, startReplayServer } from '../replay-server.ts';
import { testHttp } from './source-test-http.ts';

const NOW = new Date('2026-06-10T07:00:00Z');
const json = (name: string) => ({
  contentType: 'application/json; charset=utf-8',
  body: fixture(`edinet/${name}`),
});

describe('EDINET adapter', () => {
  let server: ReplayServer;
  afterEach(() => server.close());

  it("asks documents.json for today's date in Japan with type=2 and the key as Subscription-Key", async () => {
    server = await startReplayServer(() => json('documents-2026-06-10.json'));
    await edinetSource(testHttp('edinet'), `${server.url}/api/v2`, 'key-123').list(['E02144'], NOW);
    const [request] = server.requests;
    expect(request?.path).toBe('/api/v2/documents.json');
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      date: '2026-06-10',
      type: '2',
      'Subscription-Key': 'key-123',
    });
  });

  it('asks the day before as well during the first hours of the day in Japan', async () => {
    server = await startReplayServer(() => json('documents-weekend.json'));
    await edinetSource(testHttp('edinet'), server.url, 'k').list(
      ['E02144'],
      new Date('2026-06-10T16:00:00Z'),
    );
    expect(server.requests.map((request) => request.query.get('date'))).toEqual(['2026-06-11', '2026-06-10']);
    server.requests.length = 0;
    await edinetSource(testHttp('edinet'), server.url, 'k').list(
      ['E02144'],
      new Date('2026-06-10T21:00:01Z'),
    );
    expect(server.requests.map((request) => request.query.get('date'))).toEqual(['2026-06-11']);
  });

  it('keeps documents of followed filers and leaves withdrawals out', async () => {
    server = await startReplayServer(() => json('documents-2026-06-10.json'));
    const filings = await edinetSource(testHttp('edinet'), server.url, 'k').list(['E02144', 'G01234'], NOW);
    expect(filings).toEqual([
      {
        source: 'edinet',
        key: 'S100W7OT',
        companyCode: 'E02144',
        companyName: 'トヨタ自動車株式会社',
        title: '有価証券報告書－第122期(2025/04/01－2026/03/31)',
        documentUrl: 'https://disclosure2.edinet-fsa.go.jp/WZEK0040.aspx?S100W7OT,,',
        publishedAt: new Date('2026-06-10T06:00:00Z'),
      },
      expect.objectContaining({ key: 'S100W7AA', companyCode: 'G01234' }),
    ]);
  });

  it('reads a day with count 0 as no filings', async () => {
    server = await startReplayServer(() => json('documents-weekend.json'));
    await expect(edinetSource(testHttp('edinet'), server.url, 'k').list(['E02144'], NOW)).resolves.toEqual(
      [],
    );
  });

  it('recognises an error sent as HTTP 200 with a status in the body, in either casing and in metadata', async () => {
    server = await startReplayServer(() => json('invalid-key-200.json'));
    const source = edinetSource(testHttp('edinet'), server.url, 'bad');
    await expect(source.list(['E02144'], NOW)).rejects.toMatchObject({ source: 'edinet', kind: 'refused' });
    server.answer(() => ({ body: JSON.stringify({ statusCode: 500, message: 'Internal' }) }));
    await expect(source.list(['E02144'], NOW)).rejects.toMatchObject({ kind: 'bad_answer' });
    server.answer(() => json('metadata-404.json'));
    await expect(source.list(['E02144'], NOW)).rejects.toThrow(/status 404 in the body/);
    server.answer(() => ({ contentType: 'text/html', body: '<html>maintenance</html>' }));
    await expect(source.list(['E02144'], NOW)).rejects.toMatchObject({ kind: 'bad_answer' });
  });

  it('reads the code list ZIP: CP932, metadata line, full-width header, quoted fields, unlisted filers', async () => {
    server = await startReplayServer((request) =>
      request.path === '/searchdocument/codelist/Edinetcode.zip'
        ? { contentType: 'application/zip', body: fixture('edinet/Edinetcode.zip') }
        : undefined,
    );
    const filers = await fetchEdinetCodeList(
      testHttp('edinet'),
      `${server.url}/searchdocument/codelist/Edinetcode.zip`,
    );
    expect(filers).toEqual([
      {
        edinetCode: 'E02144',
        tdnetCode: '7203',
        name: 'トヨタ自動車株式会社',
        nameEn: 'TOYOTA MOTOR CORPORATION',
        nameKana: 'トヨタジドウシャカブシキガイシャ',
      },
      expect.objectContaining({ edinetCode: 'E39999', tdnetCode: '130A', nameEn: 'Verite Co., Ltd.' }),
      expect.objectContaining({ edinetCode: 'E05555', tdnetCode: '', nameEn: 'Hijojo Kogyo "K.K."' }),
    ]);
  });
});
