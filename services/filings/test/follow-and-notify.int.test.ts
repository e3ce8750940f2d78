import { randomBytes } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { type BusMessage, createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { type filingsEventsV1, filingsV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import { accountCancelled, filingPublished, streams } from '@mimamori/events';
import {
  createGrpcClient,
  createLogger,
  createMetrics,
  createShutdown,
  type Metrics,
  type Shutdown,
  unary,
} from '@mimamori/runtime';
import { runService } from '@mimamori/service-host';
import { createFreshDatabase, type FreshDatabase, testNatsUrl } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilingsSettings } from '../src/config.ts';
import { createFilingsService, type FilingsService } from '../src/service.ts';
import { fixture, type ReplayServer, startReplayServer } from './replay-server.ts';

const logger = createLogger({ service: 'filings-test', level: 'silent' });

interface Submission {
  accession: string;
  acceptedAt: Date;
  form: string;
}

/**
 * The filings service as it runs in the cluster, in this process: real PostgreSQL, JetStream,
 * gRPC, and the SEC replayed by a local server whose submissions the test adds filings to.
 */
describe('filings service: follow, poll, tell each follower once', () => {
  let database: FreshDatabase;
  let db: Db;
  let bus: EventBus;
  let sec: ReplayServer;
  const submissions: Submission[] = [];
  const received: filingsEventsV1.FilingPublished[] = [];
  let secAnswer: 'ok' | 'busy' = 'ok';
  let isinAnswer: 'ok' | 'busy' = 'ok';

  const settings = (): FilingsSettings => ({
    sources: ['tdnet', 'edinet', 'sec', 'globenewswire'],
    pollIntervalMs: 3_600_000,
    backoffMaxMs: 3_600_000,
    directoryRefreshMs: 3_600_000,
    userAgent: 'Mimamori test ops@mimamori.example',
    tdnetListUrl: `${sec.url}/tdnet/`,
    edinetApiUrl: `${sec.url}/edinet`,
    edinetApiKey: '',
    edinetCodeListUrl: `${sec.url}/Edinetcode.zip`,
    secWwwUrl: sec.url,
    secDataUrl: sec.url,
    secRequestsPerSecond: 10,
    globeNewswireUrl: sec.url,
  });

  const running: { shutdown: Shutdown; module: FilingsService; address: string; metrics: Metrics }[] = [];
  async function startService() {
    const shutdown = createShutdown({ logger, timeoutMs: 10_000 });
    const metrics = createMetrics({ service: 'filings' });
    const module = createFilingsService({
      db,
      logger,
      settings: settings(),
      metrics,
      timers: false,
    });
    const service = await runService(module, {
      db,
      bus,
      logger,
      shutdown,
      grpc: { host: '127.0.0.1', port: 0 },
    });
    const entry = { shutdown, module, address: service.grpcAddress, metrics };
    running.push(entry);
    return entry;
  }

  async function untilReceived(count: number) {
    const deadline = Date.now() + 20_000;
    while (received.length < count && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    // Anything sent twice would arrive right behind; give it the time to.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  beforeAll(async () => {
    database = await createFreshDatabase();
    db = openPostgres(database.url);
    bus = namespacedBus(
      await createJetStreamBus({ servers: testNatsUrl() }),
      `f${randomBytes(4).toString('hex')}`,
    );
    await bus.declareStreams([streams.filings]);
    await bus.consume(
      { stream: streams.filings.name, durable: 'test-notifier', ackWaitMs: 30_000, maxDeliver: 5 },
      async (message: BusMessage) => {
        received.push(filingPublished.decode(message.data));
      },
    );
    sec = await startReplayServer((request) => {
      if (request.path === '/files/company_tickers.json')
        return { contentType: 'application/json', body: fixture('sec/company_tickers.json') };
      if (request.path === '/Edinetcode.zip') return { body: fixture('edinet/Edinetcode.zip') };
      if (request.path.startsWith('/RssFeed/keyword/')) {
        if (isinAnswer === 'busy') return { status: 429, body: 'Too Many Requests' };
        const known = request.path.endsWith('/US0378331005');
        return {
          contentType: 'application/rss+xml',
          body: fixture(`globenewswire/${known ? 'keyword-US0378331005.xml' : 'empty-channel.xml'}`),
        };
      }
      if (request.path !== '/submissions/CIK0000320193.json') return undefined;
      if (secAnswer === 'busy') return { status: 429, body: 'Too Many Requests' };
      const newestFirst = [...submissions].reverse();
      return {
        contentType: 'application/json',
        body: JSON.stringify({
          cik: '320193',
          name: 'Apple Inc.',
          filings: {
            recent: {
              accessionNumber: newestFirst.map((filing) => filing.accession),
              acceptanceDateTime: newestFirst.map((filing) => filing.acceptedAt.toISOString()),
              filingDate: newestFirst.map((filing) => filing.acceptedAt.toISOString().slice(0, 10)),
              form: newestFirst.map((filing) => filing.form),
              primaryDocument: newestFirst.map((filing) => `${filing.accession}.htm`),
              primaryDocDescription: newestFirst.map((filing) => filing.form),
            },
          },
        }),
      };
    });
    // The backlog: filed months, days and an hour before anyone follows (the last two are
    // recent enough to be news, so only the follow time keeps them out).
    const agoMs = [90 * 86_400_000, 2 * 86_400_000, 3_600_000];
    for (const [i, form] of ['10-K', '10-Q', '8-K'].entries())
      submissions.push({
        accession: `0000320193-26-00000${i}`,
        acceptedAt: new Date(Date.now() - (agoMs[i] ?? 0)),
        form,
      });
  });

  afterAll(async () => {
    for (const entry of running) await entry.shutdown.run('test finished');
    await bus?.close();
    await db?.close();
    await sec?.close();
    await database?.drop();
  });

  it('follows from the directory, tells each follower once, never again on a later poll or after a restart', async () => {
    let service = await startService();
    await service.module.directory.refresh();
    const client = createGrpcClient(filingsV1.FilingsServiceClient, service.address);
    try {
      // The directory answers the search the dashboard sends.
      const found = await unary(client, 'searchSecCompanies', { query: 'ａｐｐｌｅ' });
      expect(found.companies).toEqual([{ cik: '320193', ticker: 'AAPL', name: 'Apple Inc.', demo: false }]);
      await expect(unary(client, 'searchSecCompanies', { query: 'ap' })).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: 'query_too_short|query|',
      });
      const japanese = await unary(client, 'searchJapaneseCompanies', { query: 'とよた' });
      expect(japanese.companies.map((company) => company.edinetCode)).toEqual(['E02144']);
      // A bad ISIN is refused before GlobeNewswire is asked.
      const before = sec.requests.length;
      await expect(unary(client, 'searchIsin', { isin: 'US0378331006' })).rejects.toMatchObject({
        details: 'isin_invalid|isin|',
      });
      await expect(unary(client, 'searchIsin', { isin: 'US037833100' })).rejects.toMatchObject({
        details: 'isin_length|isin|',
      });
      expect(sec.requests.length).toBe(before);
      // GlobeNewswire asking us to slow down is the dashboard's 'try again in a few minutes'.
      isinAnswer = 'busy';
      await expect(unary(client, 'searchIsin', { isin: 'US0378331005' })).rejects.toMatchObject({
        code: status.RESOURCE_EXHAUSTED,
        details: 'source_busy|globenewswire|',
      });
      isinAnswer = 'ok';
      expect((await unary(client, 'searchIsin', { isin: 'US0378331005' })).issuers).toEqual([
        { isin: 'US0378331005', name: 'Apple Inc.', demo: false },
      ]);
      expect((await unary(client, 'searchIsin', { isin: 'DE0007164600' })).issuers).toEqual([]);

      for (const userId of ['u1', 'u2']) {
        const followed = await unary(client, 'follow', {
          userId,
          kind: 'cik',
          cik: '0000320193',
          edinetCode: '',
          isin: '',
          label: '',
        });
        expect(followed.added).toMatchObject({
          kind: 'cik',
          cik: '320193',
          ticker: 'AAPL',
          label: 'Apple Inc.',
        });
      }
      const again = await unary(client, 'follow', {
        userId: 'u1',
        kind: 'cik',
        cik: '320193',
        edinetCode: '',
        isin: '',
        label: '',
      });
      expect(again.follows).toHaveLength(1);
    } finally {
      client.close();
    }

    // First poll after the follows: the backlog is recorded, nobody is told of it.
    expect(await service.module.poller.pollNow('sec')).toEqual({ listed: 3, newlySeen: 3, notices: 0 });

    // A new filing: one event per follower, with what the notice needs.
    const eightK = { accession: '0000320193-26-000100', acceptedAt: new Date(), form: '8-K' };
    submissions.push(eightK);
    expect(await service.module.poller.pollNow('sec')).toMatchObject({ newlySeen: 1, notices: 2 });
    await untilReceived(2);
    expect(received.map((event) => event.userId).sort()).toEqual(['u1', 'u2']);
    expect(received[0]).toMatchObject({
      eventId: `filing:sec:${eightK.accession}:${received[0]?.userId}`,
      source: 'sec',
      filingKey: eightK.accession,
      companyName: 'Apple Inc.',
      companyCode: '320193',
      followLabel: 'Apple Inc.',
      title: '8-K',
      documentUrl: `${sec.url}/Archives/edgar/data/320193/000032019326000100/${eightK.accession}.htm`,
      publishedAt: eightK.acceptedAt,
    });

    // The same list polled again sends nothing.
    expect(await service.module.poller.pollNow('sec')).toMatchObject({ newlySeen: 0, notices: 0 });

    // The source asks us to slow down: an error, not "no filings"; nothing is recorded.
    const tenQ = { accession: '0000320193-26-000101', acceptedAt: new Date(), form: '10-Q' };
    submissions.push(tenQ);
    secAnswer = 'busy';
    await expect(service.module.poller.pollNow('sec')).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(await service.metrics.registry.getSingleMetricAsString('filings_source_errors_total')).toContain(
      'filings_source_errors_total{source="sec",kind="rate_limited",service="filings"} 1',
    );
    secAnswer = 'ok';

    // A restart in the middle: this instance records the filing and stops at once; the next
    // one, on the same database, publishes what was left and finds nothing new to tell.
    await service.module.poller.pollNow('sec');
    await service.shutdown.run('restart');
    service = await startService();
    expect(await service.module.poller.pollNow('sec')).toMatchObject({ newlySeen: 0, notices: 0 });
    await untilReceived(4);
    expect(
      received
        .filter((event) => event.filingKey === tenQ.accession)
        .map((event) => event.userId)
        .sort(),
    ).toEqual(['u1', 'u2']);

    // Two instances polling the same list at once (a second replica, a redelivered poll).
    const other = await startService();
    const annual = { accession: '0000320193-26-000102', acceptedAt: new Date(), form: '10-K' };
    submissions.push(annual);
    const outcomes = await Promise.all([
      service.module.poller.pollNow('sec'),
      other.module.poller.pollNow('sec'),
    ]);
    expect(outcomes.map((outcome) => outcome.notices).sort()).toEqual([0, 2]);
    await untilReceived(6);
    expect(received).toHaveLength(6);
    expect(new Set(received.map((event) => event.eventId)).size).toBe(6);
  });

  it('answers a follow of an unknown company as not found and keeps within the follow limit', async () => {
    const service = running.at(-1) ?? (await startService());
    const client = createGrpcClient(filingsV1.FilingsServiceClient, service.address);
    try {
      await expect(
        unary(client, 'follow', {
          userId: 'u3',
          kind: 'tdedinet',
          edinetCode: 'E00000',
          cik: '',
          isin: '',
          label: '',
        }),
      ).rejects.toMatchObject({ code: status.NOT_FOUND });
      const toyota = await unary(client, 'follow', {
        userId: 'u3',
        kind: 'tdedinet',
        edinetCode: 'e02144',
        cik: '',
        isin: '',
        label: '',
      });
      expect(toyota.added).toMatchObject({
        kind: 'tdedinet',
        edinetCode: 'E02144',
        tdnetCode: '7203',
        label: 'トヨタ自動車株式会社',
      });
      const isin = await unary(client, 'follow', {
        userId: 'u3',
        kind: 'isin',
        isin: 'us0378331005',
        edinetCode: '',
        cik: '',
        label: 'Apple Inc.',
      });
      const listed = await unary(client, 'listFollows', { userId: 'u3' });
      expect(listed.tdedinets.map((item) => item.edinetCode)).toEqual(['E02144']);
      expect(listed.cikIsins.map((item) => item.isin)).toEqual(['US0378331005']);
      const left = await unary(client, 'unfollow', { userId: 'u3', followId: isin.added?.id ?? '' });
      expect(left.follows).toEqual([]);
      await expect(
        unary(client, 'unfollow', { userId: 'u1', followId: toyota.added?.id ?? '' }),
      ).rejects.toMatchObject({
        code: status.NOT_FOUND,
      });
      for (let i = 0; i < 99; i++)
        await unary(client, 'follow', {
          userId: 'u4',
          kind: 'isin',
          isin: isinNumber(i),
          edinetCode: '',
          cik: '',
          label: '',
        });
      await expect(
        unary(client, 'follow', {
          userId: 'u4',
          kind: 'isin',
          isin: isinNumber(99),
          edinetCode: '',
          cik: '',
          label: '',
        }),
      ).resolves.toBeDefined();
      await expect(
        unary(client, 'follow', {
          userId: 'u4',
          kind: 'isin',
          isin: isinNumber(100),
          edinetCode: '',
          cik: '',
          label: '',
        }),
      ).rejects.toMatchObject({ code: status.FAILED_PRECONDITION, details: 'follow_limit||' });
    } finally {
      client.close();
    }
  });

  it("removes a cancelled account's follows and no one else's", async () => {
    const service = running.at(-1) ?? (await startService());
    const client = createGrpcClient(filingsV1.FilingsServiceClient, service.address);
    try {
      const follow = { kind: 'cik', cik: '320193', edinetCode: '', isin: '', label: '' };
      await unary(client, 'follow', { ...follow, userId: 'u5' });
      await unary(client, 'follow', { ...follow, userId: 'u6' });
      await bus.publish(
        accountCancelled.subject,
        accountCancelled.encode({
          eventId: 'cancelled:u5',
          userId: 'u5',
          cancelledAt: new Date(),
          reason: '',
        }),
        { msgId: 'cancelled:u5' },
      );
      const deadline = Date.now() + 20_000;
      while (
        (await unary(client, 'listFollows', { userId: 'u5' })).cikIsins.length > 0 &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await unary(client, 'listFollows', { userId: 'u5' })).cikIsins).toEqual([]);
      expect((await unary(client, 'listFollows', { userId: 'u6' })).cikIsins).toHaveLength(1);
    } finally {
      client.close();
    }
  });
});

/** The i-th ISIN of a made-up series, with its check digit. */
function isinNumber(i: number): string {
  const body = `XS${String(i).padStart(9, '0')}`;
  for (let digit = 0; digit <= 9; digit++) {
    const candidate = `${body}${digit}`;
    const digits = [...candidate].map((char) => Number.parseInt(char, 36).toString()).join('');
    let sum = 0;
    [...digits].reverse().forEach((d, position) => {
      let value = Number(d) * (position % 2 === 1 ? 2 : 1);
      if (value > 9) value -= 9;
      sum += value;
    });
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('no check digit');
}
