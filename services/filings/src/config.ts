import { scaledMs } from '@mimamori/runtime';
import { serviceProcessEnv } from '@mimamori/service-host';
import { z } from 'zod';
import type { SourceName } from './domain/filing.ts';

const SOURCE_NAMES = ['tdnet', 'edinet', 'sec', 'globenewswire'] as const satisfies readonly SourceName[];

/** The filings service's own variables; every one has a default. */
export const filingsOwnEnv = {
  // The sources this process may ask, comma-separated (tdnet, edinet, sec, globenewswire); none
  // by default, so a process started without it never reaches the internet. tdnet or edinet
  // also fetches the EDINET code list, sec the SEC's tickers; globenewswire answers ISIN searches.
  FILINGS_SOURCES: z
    .string()
    .default('')
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.enum(SOURCE_NAMES))),
  // The bundled demo source instead of real ones (docs/filings.md#trying-filings): search answers
  // from a small set of companies and a new demo filing comes every few minutes. Off by default;
  // refused with FILINGS_SOURCES, so demo data never mixes with a real source's.
  FILINGS_DEMO: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  // Seconds between polls of each filings source while it answers.
  FILINGS_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(10).default(300),
  // The longest wait between polls of a source that keeps failing, in minutes.
  FILINGS_BACKOFF_MAX_MINUTES: z.coerce.number().int().min(1).default(60),
  // Hours between refreshes of the company directory (EDINET code list, SEC tickers).
  FILINGS_DIRECTORY_REFRESH_HOURS: z.coerce.number().min(1).default(24),
  // Sent to every source; the SEC requires a company name and a contact e-mail
  // ("Example Co ops@example.com") and answers 403 without one, so SEC stays off while it has none.
  FILINGS_USER_AGENT: z.string().default(''),
  // TDnet's public list pages (I_list_001_YYYYMMDD.html are read under it).
  TDNET_LIST_URL: z.url().default('https://www.release.tdnet.info/inbs/'),
  // EDINET API v2 and its key (issued at api.edinet-fsa.go.jp); EDINET polling is off without a key.
  EDINET_API_URL: z.url().default('https://api.edinet-fsa.go.jp/api/v2'),
  EDINET_API_KEY: z.string().default(''),
  // The EDINET code list ZIP (needs no key).
  EDINET_CODE_LIST_URL: z
    .url()
    .default('https://disclosure2dl.edinet-fsa.go.jp/searchdocument/codelist/Edinetcode.zip'),
  // sec.gov (tickers file, document links) and data.sec.gov (submissions).
  SEC_WWW_URL: z.url().default('https://www.sec.gov'),
  SEC_DATA_URL: z.url().default('https://data.sec.gov'),
  // Requests a second to the SEC from this process; its fair-access limit is 10 in total.
  SEC_REQUESTS_PER_SECOND: z.coerce.number().min(0.1).max(10).default(5),
  GLOBENEWSWIRE_URL: z.url().default('https://www.globenewswire.com'),
};

export const filingsEnv = { ...serviceProcessEnv, ...filingsOwnEnv };

export type FilingsEnv = z.infer<z.ZodObject<typeof filingsOwnEnv>>;

/** A demo company publishes its next filing this often (in the product's minutes). */
export const DEMO_FILING_EVERY_MINUTES = 3;

/** What the service needs of the environment; tests build it by hand. */
export interface FilingsSettings {
  /** The sources switched on (FILINGS_SOURCES); the others are never asked. */
  sources: readonly SourceName[];
  /** The bundled demo source instead of any real one (FILINGS_DEMO); only with no source on. */
  demo?: boolean;
  /** How often a demo company publishes (DEMO_FILING_EVERY_MINUTES, on the product's time). */
  demoFilingEveryMs?: number;
  pollIntervalMs: number;
  backoffMaxMs: number;
  directoryRefreshMs: number;
  userAgent: string;
  tdnetListUrl: string;
  edinetApiUrl: string;
  edinetApiKey: string;
  edinetCodeListUrl: string;
  secWwwUrl: string;
  secDataUrl: string;
  secRequestsPerSecond: number;
  globeNewswireUrl: string;
}

/** `timeScale`: how many times faster the product's time passes (more than 1 only in test runs). */
export function filingsSettings(env: FilingsEnv, timeScale = 1): FilingsSettings {
  return {
    sources: env.FILINGS_SOURCES,
    demo: env.FILINGS_DEMO,
    demoFilingEveryMs: scaledMs(DEMO_FILING_EVERY_MINUTES * 60_000, timeScale),
    pollIntervalMs: scaledMs(env.FILINGS_POLL_INTERVAL_SECONDS * 1_000, timeScale),
    backoffMaxMs: scaledMs(env.FILINGS_BACKOFF_MAX_MINUTES * 60_000, timeScale),
    directoryRefreshMs: env.FILINGS_DIRECTORY_REFRESH_HOURS * 3_600_000,
    userAgent: env.FILINGS_USER_AGENT,
    tdnetListUrl: env.TDNET_LIST_URL,
    edinetApiUrl: env.EDINET_API_URL,
    edinetApiKey: env.EDINET_API_KEY,
    edinetCodeListUrl: env.EDINET_CODE_LIST_URL,
    secWwwUrl: env.SEC_WWW_URL,
    secDataUrl: env.SEC_DATA_URL,
    secRequestsPerSecond: env.SEC_REQUESTS_PER_SECOND,
    globeNewswireUrl: env.GLOBENEWSWIRE_URL,
  };
}

/** The settings from an environment (the single-process mode reads its own with this). */
export function filingsSettingsFrom(env: Record<string, string | undefined>, timeScale = 1): FilingsSettings {
  return filingsSettings(z.object(filingsOwnEnv).parse(env), timeScale);
}

/** The settings with every variable unset: no source is asked (the single-process default). */
export const defaultFilingsSettings: FilingsSettings = filingsSettings(z.object(filingsOwnEnv).parse({}));

/** Whether a User-Agent names a contact the way the SEC asks ("Company admin@company.example"). */
export function hasContact(userAgent: string): boolean {
  return /\S+@\S+\.\S+/.test(userAgent);
}
