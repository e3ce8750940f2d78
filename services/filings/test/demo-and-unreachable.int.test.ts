import { randomBytes } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { type BusMessage, createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { type filingsEventsV1, filingsV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import { filingPublished, streams } from '@mimamori/events';
import { createGrpcClient, createLogger, createShutdown, type Shutdown, unary } from '@mimamori/runtime';
import { runService } from '@mimamori/service-host';
import { createFreshDatabase, type FreshDatabase, testNatsUrl } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultFilingsSettings, type FilingsSettings } from '../src/config.ts';
import { createFilingsService } from '../src/service.ts';
import { type ReplayServer, startReplayServer } from './replay-server.ts';

const logger = createLogger({ service: 'filings-demo-test', level: 'silent' });

/** A demo period short enough for a test: the product's 3 minutes under a large time scale. */
const DEMO_EVERY_MS = 2_000;

/**
 * The filings service with the bundled demo source (real PostgreSQL, JetStream, gRPC, its own
 * timers), and with real sources that cannot be reached or are off: what search answers then.
 */
describe('filings service: the demo source, and sources that are off or unreachable', () => {
  let database: FreshDatabase;
  let db: Db;
  let bus: EventBus;
  let failing: ReplayServer;
  const received: filingsEventsV1.FilingPublished[] = [];
  const shutdowns: Shutdown[] = [];

  async function start(settings: FilingsSettings, timers: boolean) {
    const shutdown = createShutdown({ logger, timeoutMs: 10_000 });
    shutdowns.push(shutdown);
    const module = createFilingsService({ db, logger, settings, timers });
    const service = await runService(module, {
      db,
      bus,
      logger,
      shutdown,
      grpc: { host: '127.0.0.1', port: 0 },
    });
    const client = createGrpcClient(filingsV1.FilingsServiceClient, service.grpcAddress);
    shutdown.register('client', async () => client.close());
    return { module, client };
  }

  beforeAll(async () => {
    database = await createFreshDatabase();
    db = openPostgres(database.url);
    bus = namespacedBus(
      await createJetStreamBus({ servers: testNatsUrl() }),
      `d${randomBytes(4).toString('hex')}`,
    );
    await bus.declareStreams([streams.filings]);
    await bus.consume(
      { stream: streams.filings.name, durable: 'test-notifier', ackWaitMs: 30_000, maxDeliver: 5 },
      async (message: BusMessage) => {
        received.push(filingPublished.decode(message.data));
      },
    );
    // Every source answering 503, as one down for maintenance does.
    failing = await startReplayServer(() => ({ status: 503, body: 'Service Unavailable' }));
  });

  afterAll(async () => {
    for (const shutdown of shutdowns.reverse()) await shutdown.run('test finished');
    await bus?.close();
    await db?.close();
    await failing?.close();
    await database?.drop();
  });

  it('answers searches from the demo set, marked demo, and publishes a new demo filing each period to its followers', async () => {
    const { client } = await start(
      { ...defaultFilingsSettings, demo: true, demoFilingEveryMs: DEMO_EVERY_MS },
      true,
    );
    expect(await unary(client, 'getSources', {})).toEqual({ demo: true, sources: [] });
    const toyota = await unary(client, 'searchJapaneseCompanies', { query: 'トヨタ' });
    expect(toyota.companies).toEqual([
      {
        edinetCode: 'E02144',
        tdnetCode: '7203',
        name: 'トヨタ自動車株式会社',
        nameEn: 'TOYOTA MOTOR CORPORATION',
        demo: true,
      },
    ]);
    for (const query of ['AAPL', '320193'])
      expect((await unary(client, 'searchSecCompanies', { query })).companies).toEqual([
        { cik: '320193', ticker: 'AAPL', name: 'Apple Inc.', demo: true },
      ]);
    // A valid ISIN is answered, never refused for want of GlobeNewswire.
    expect((await unary(client, 'searchIsin', { isin: 'JP3633400001' })).issuers).toEqual([
      { isin: 'JP3633400001', name: 'TOYOTA MOTOR CORPORATION', demo: true },
    ]);
    expect((await unary(client, 'searchIsin', { isin: 'DE0007164600' })).issuers).toEqual([]);

    const follow = (
      userId: string,
      kind: string,
      codes: { edinetCode?: string; cik?: string; isin?: string },
    ) =>
      unary(client, 'follow', {
        userId,
        kind,
        edinetCode: codes.edinetCode ?? '',
        cik: codes.cik ?? '',
        isin: codes.isin ?? '',
        label: '',
      });
    expect((await follow('demo-ja', 'tdedinet', { edinetCode: 'E02144' })).added).toMatchObject({
      label: 'トヨタ自動車株式会社',
      tdnetCode: '7203',
    });
    expect((await follow('demo-en', 'cik', { cik: '320193' })).added).toMatchObject({ label: 'Apple Inc.' });

    // The demo's own timers: filings of two different periods reach each follower, through the
    // outbox and the bus as a real source's do, and the marks say they are demo filings.
    const periodsOf = (userId: string) =>
      new Set(
        received.filter((event) => event.userId === userId).map((event) => event.publishedAt?.getTime()),
      );
    const deadline = Date.now() + 40_000;
    while ((periodsOf('demo-ja').size < 2 || periodsOf('demo-en').size < 2) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    for (const userId of ['demo-ja', 'demo-en']) {
      const periods = [...periodsOf(userId)].map(Number).sort();
      expect(periods.length, userId).toBeGreaterThanOrEqual(2);
      for (const at of periods) expect(at % DEMO_EVERY_MS).toBe(0);
    }
    const japanese = received.filter((event) => event.userId === 'demo-ja');
    for (const event of japanese) {
      expect(['tdnet', 'edinet']).toContain(event.source);
      expect(event.title).toMatch(/^\[デモ\] .+（デモ配信 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d）$/);
      expect(event.companyCode).toBe(event.source === 'tdnet' ? '7203' : 'E02144');
      expect(event.eventId).toBe(`filing:${event.source}:${event.filingKey}:demo-ja`);
    }
    const english = received.filter((event) => event.userId === 'demo-en');
    for (const event of english) {
      expect(event.source).toBe('sec');
      expect(event.title).toMatch(/^\[Demo\] (8-K|10-Q|10-K) \(demo, .+ UTC\)$/);
      expect(event.documentUrl).toBe(
        'https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0000320193',
      );
    }
    // Each filing is told once.
    expect(new Set(received.map((event) => event.eventId)).size).toBe(received.length);
  });

  it('names the source that could not be reached instead of answering "not found"', async () => {
    const { module, client } = await start(
      {
        ...defaultFilingsSettings,
        sources: ['edinet', 'sec', 'globenewswire'],
        userAgent: 'Mimamori test ops@mimamori.example',
        edinetCodeListUrl: `${failing.url}/Edinetcode.zip`,
        secWwwUrl: failing.url,
        secDataUrl: failing.url,
        // Nothing listens on port 9: a network error rather than a 5xx.
        globeNewswireUrl: 'http://127.0.0.1:9',
      },
      false,
    );
    await module.directory.refresh();
    expect(await unary(client, 'getSources', {})).toEqual({
      demo: false,
      sources: ['edinet', 'sec', 'globenewswire'],
    });
    await expect(unary(client, 'searchJapaneseCompanies', { query: 'トヨタ' })).rejects.toMatchObject({
      code: status.UNAVAILABLE,
      details: 'source_unavailable|edinet|',
    });
    await expect(unary(client, 'searchSecCompanies', { query: 'AAPL' })).rejects.toMatchObject({
      code: status.UNAVAILABLE,
      details: 'source_unavailable|sec|',
    });
    await expect(unary(client, 'searchIsin', { isin: 'US0378331005' })).rejects.toMatchObject({
      code: status.UNAVAILABLE,
      details: 'source_unavailable|globenewswire|',
    });
  });

  it('says a source is off when none is on and the demo is not either (the cluster default)', async () => {
    const { client } = await start(defaultFilingsSettings, false);
    expect(await unary(client, 'getSources', {})).toEqual({ demo: false, sources: [] });
    await expect(unary(client, 'searchJapaneseCompanies', { query: 'トヨタ' })).rejects.toMatchObject({
      code: status.UNAVAILABLE,
      details: 'source_off|edinet|',
    });
    await expect(unary(client, 'searchSecCompanies', { query: 'AAPL' })).rejects.toMatchObject({
      details: 'source_off|sec|',
    });
    await expect(unary(client, 'searchIsin', { isin: 'JP3633400001' })).rejects.toMatchObject({
      details: 'source_off|globenewswire|',
    });
  });

  it('refuses the demo beside a real source, so demo filings never mix with real ones', () => {
    expect(() =>
      createFilingsService({
        db,
        logger,
        settings: { ...defaultFilingsSettings, sources: ['sec'], demo: true },
      }),
    ).toThrow(/FILINGS_DEMO cannot be combined with FILINGS_SOURCES/);
  });
});
