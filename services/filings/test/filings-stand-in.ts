import { type FilingsSettings, filingsSettingsFrom } from '../src/config.ts';
import { fixture, type ReplayServer, startReplayServer } from './replay-server.ts';

/** A filing the stand-in's SEC lists for Apple (CIK 320193). */
export interface StandInFiling {
  accession: string;
  acceptedAt: Date;
  form: string;
}

export interface FilingsStandIn {
  server: ReplayServer;
  /** Apple's submissions, oldest first; push to publish. */
  submissions: StandInFiling[];
  /** 'busy' makes GlobeNewswire answer 429 (the dashboard's 'try again in a few minutes'). */
  globeNewswire: 'ok' | 'busy';
  /** Settings pointing every source at the stand-in, with these sources switched on. */
  settings(sources?: FilingsSettings['sources']): FilingsSettings;
  /** The same as the variables the service and the single-process mode read. */
  env(sources?: FilingsSettings['sources']): Record<string, string>;
  close(): Promise<void>;
}

const ALL: FilingsSettings['sources'] = ['tdnet', 'edinet', 'sec', 'globenewswire'];

/**
 * The four sources' recorded answers on one local server, for tests outside this service (the
 * gateway's, the system tests): the EDINET code list (Toyota, Verite, an unlisted filer), the
 * SEC's tickers (Apple, Microsoft, Amazon) and Apple's submissions, which the test adds filings
 * to, and GlobeNewswire's keyword feed for Apple's ISIN. TDnet's day pages answer 404 here
 * (outside its window), so a test switching tdnet on sees its error handling, not rows.
 */
export async function startFilingsStandIn(): Promise<FilingsStandIn> {
  const standIn: Omit<FilingsStandIn, 'server' | 'settings' | 'env' | 'close'> = {
    submissions: [],
    globeNewswire: 'ok',
  };
  const server = await startReplayServer((request) => {
    if (request.path === '/Edinetcode.zip') return { body: fixture('edinet/Edinetcode.zip') };
    if (request.path === '/files/company_tickers.json')
      return { contentType: 'application/json', body: fixture('sec/company_tickers.json') };
    if (request.path.startsWith('/RssFeed/keyword/')) {
      if (standIn.globeNewswire === 'busy') return { status: 429, body: 'Too Many Requests' };
      const known = request.path.endsWith('/US0378331005');
      return {
        contentType: 'application/rss+xml',
        body: fixture(`globenewswire/${known ? 'keyword-US0378331005.xml' : 'empty-channel.xml'}`),
      };
    }
    if (request.path !== '/submissions/CIK0000320193.json') return undefined;
    const newestFirst = [...standIn.submissions].reverse();
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
  const env = (sources = ALL): Record<string, string> => ({
    FILINGS_SOURCES: sources.join(','),
    FILINGS_USER_AGENT: 'Mimamori test ops@mimamori.example',
    // Long: the test polls when it wants to.
    FILINGS_POLL_INTERVAL_SECONDS: '3600',
    TDNET_LIST_URL: `${server.url}/tdnet/`,
    EDINET_API_URL: `${server.url}/edinet`,
    EDINET_CODE_LIST_URL: `${server.url}/Edinetcode.zip`,
    SEC_WWW_URL: server.url,
    SEC_DATA_URL: server.url,
    SEC_REQUESTS_PER_SECOND: '10',
    GLOBENEWSWIRE_URL: server.url,
  });
  return Object.assign(standIn, {
    server,
    env,
    settings: (sources = ALL): FilingsSettings => filingsSettingsFrom(env(sources)),
    close: () => server.close(),
  });
}
