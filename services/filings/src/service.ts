import { outboxMigration, processedEventsMigration } from '@mimamori/bus';
import { filingsV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { streams } from '@mimamori/events';
import { createMetrics, type Logger, type Metrics } from '@mimamori/runtime';
import type { ServiceModule } from '@mimamori/service-host';
import { demoSources, findDemoIssuer } from './clients/demo-source.ts';
import { fetchEdinetCodeList } from './clients/edinet-code-list.ts';
import { edinetSource } from './clients/edinet-source.ts';
import { globeNewswireSource } from './clients/globenewswire-source.ts';
import { fetchSecTickers, secSource } from './clients/sec-source.ts';
import type { SourceHttp } from './clients/source-http.ts';
import { tdnetSource } from './clients/tdnet-source.ts';
import {
  DEMO_FILING_EVERY_MINUTES,
  defaultFilingsSettings,
  type FilingsSettings,
  hasContact,
} from './config.ts';
import type { FilingSource, SourceName } from './domain/filing.ts';
import { FilingsProblem } from './domain/filings-problem.ts';
import { FRESH_FOR_MS } from './domain/notices.ts';
import { RequestPacer } from './domain/pacing.ts';
import { accountConsumers } from './events/account-consumers.ts';
import { accountPurgedConsumer } from './events/account-purged.ts';
import { filingsServer } from './grpc/filings-server.ts';
import { type CompanyDirectory, createCompanyDirectory } from './jobs/company-directory.ts';
import { createDemoDirectory } from './jobs/demo-directory.ts';
import { createSourcePoller, type SourcePoller } from './jobs/source-poller.ts';
import { createFilingsStore } from './store/filings-store.ts';
import { FILINGS_SCHEMA, filingsMigrations } from './store/migrations.ts';

/** Used while FILINGS_USER_AGENT is unset: TDnet, EDINET and GlobeNewswire are asked politely. */
const DEFAULT_USER_AGENT = 'Mimamori filings watch';
const SOURCE_TIMEOUT_MS = 30_000;
/** The demo is polled this many times a period, so a new demo filing is told soon after it comes. */
const DEMO_POLLS_PER_FILING = 3;

export interface FilingsServiceOptions {
  db: Db;
  logger: Logger;
  /** Sources, keys and intervals; the defaults of every variable unless given. */
  settings?: FilingsSettings;
  /** Where the source error counters go; the host's registry in a process, a fresh one otherwise. */
  metrics?: Metrics;
  now?: () => Date;
  /** Poll and refresh on timers (default); tests drive `poller` and `directory` themselves. */
  timers?: boolean;
}

export type FilingsService = ServiceModule & { poller: SourcePoller; directory: CompanyDirectory };

/**
 * Company filings: the directory (EDINET code list, SEC tickers), users' follows and the
 * polling of TDnet, EDINET, SEC and GlobeNewswire. A filing seen for the first time becomes one
 * filings.published event per follower, written through the outbox in the transaction that
 * records it as seen. A cancelled account's follows go (accounts.cancelled).
 */
export function createFilingsService(options: FilingsServiceOptions): FilingsService {
  const { db, logger } = options;
  const settings = options.settings ?? defaultFilingsSettings;
  const now = options.now ?? (() => new Date());
  const store = createFilingsStore(db);
  const withContact = hasContact(settings.userAgent);
  const http = (source: SourceName, perSecond: number, burst: number): SourceHttp => ({
    source,
    pacer: new RequestPacer(perSecond, burst),
    userAgent: settings.userAgent || DEFAULT_USER_AGENT,
    timeoutMs: SOURCE_TIMEOUT_MS,
  });
  // TDnet and EDINET publish no limit; their careful clients wait a second between requests.
  const tdnetHttp = http('tdnet', 1, 1);
  const edinetHttp = http('edinet', 1, 1);
  const secHttp = http(
    'sec',
    settings.secRequestsPerSecond,
    Math.max(1, Math.floor(settings.secRequestsPerSecond)),
  );
  const globeNewswireHttp = http('globenewswire', 1, 2);

  if (settings.demo && settings.sources.length > 0)
    throw new Error(
      'FILINGS_DEMO cannot be combined with FILINGS_SOURCES: demo filings would mix with real ones',
    );

  // Only the sources FILINGS_SOURCES names are asked, for polling and for the directory alike.
  const on = new Set(settings.sources);
  const globeNewswire = globeNewswireSource(globeNewswireHttp, settings.globeNewswireUrl);
  const sources: FilingSource[] = [];
  if (on.has('tdnet')) sources.push(tdnetSource(tdnetHttp, settings.tdnetListUrl));
  if (on.has('globenewswire')) sources.push(globeNewswire);
  if (on.has('edinet')) {
    if (settings.edinetApiKey)
      sources.push(edinetSource(edinetHttp, settings.edinetApiUrl, settings.edinetApiKey));
    else logger.warn('EDINET_API_KEY is not set: EDINET documents are not polled (TDnet still is)');
  }
  if (on.has('sec') && !withContact)
    logger.warn(
      'FILINGS_USER_AGENT names no contact e-mail: the SEC is not asked (it refuses such requests)',
    );
  const secOn = on.has('sec') && withContact;
  if (secOn) sources.push(secSource(secHttp, { www: settings.secWwwUrl, data: settings.secDataUrl }));
  const demoEveryMs = settings.demoFilingEveryMs ?? DEMO_FILING_EVERY_MINUTES * 60_000;
  if (settings.demo) {
    sources.push(...demoSources(demoEveryMs));
    logger.info(
      'FILINGS_DEMO: filings come from the bundled demo source, marked as demo; no source is asked',
    );
  } else if (on.size === 0)
    logger.info('FILINGS_SOURCES is empty: no filings source is asked and the directory is not fetched');

  const directory = settings.demo
    ? createDemoDirectory()
    : createCompanyDirectory(
        store,
        {
          ...(on.has('tdnet') || on.has('edinet')
            ? { japanese: () => fetchEdinetCodeList(edinetHttp, settings.edinetCodeListUrl) }
            : {}),
          ...(secOn ? { sec: () => fetchSecTickers(secHttp, settings.secWwwUrl) } : {}),
        },
        logger,
      );
  // Without GlobeNewswire no ISIN can be looked up: the search says the source is off.
  const findIsinIssuer = settings.demo
    ? findDemoIssuer
    : on.has('globenewswire')
      ? globeNewswire.findIssuer
      : async (): Promise<string | undefined> => {
          throw new FilingsProblem('source_unavailable', 'source_off', 'globenewswire');
        };
  const poller = createSourcePoller({
    db,
    store,
    logger,
    metrics: options.metrics ?? createMetrics({ service: 'filings' }),
    sources,
    intervalMs: settings.demo ? Math.round(demoEveryMs / DEMO_POLLS_PER_FILING) : settings.pollIntervalMs,
    backoffMaxMs: settings.backoffMaxMs,
    now,
  });
  if (options.timers ?? true) {
    directory.start(settings.directoryRefreshMs);
    poller.start();
  }

  return {
    name: 'filings',
    schema: FILINGS_SCHEMA,
    migrations: [
      ...filingsMigrations,
      outboxMigration(FILINGS_SCHEMA),
      processedEventsMigration(FILINGS_SCHEMA),
    ],
    streams: [streams.filings, streams.accounts],
    consumers: [...accountConsumers(db, store, logger), accountPurgedConsumer(db)],
    outbox: true,
    grpc: [
      {
        definition: filingsV1.FilingsServiceService,
        implementation: filingsServer({
          store,
          directory,
          findIsinIssuer,
          now,
          sources: [...on],
          demo: settings.demo ?? false,
        }),
      },
    ],
    // Seen filings are kept while a source may still list them as new (the notice rule ignores
    // anything older than FRESH_FOR_MS, so forgetting them then cannot tell anyone twice).
    sweep: (keepMs) => store.forgetSeenBefore(new Date(now().getTime() - Math.max(keepMs, 2 * FRESH_FOR_MS))),
    stop: async () => {
      await poller.stop();
      await directory.stop();
    },
    poller,
    directory,
  };
}
