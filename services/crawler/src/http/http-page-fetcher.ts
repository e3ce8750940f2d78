import { setTimeout as sleep } from 'node:timers/promises';
import { createGuardedDispatcher } from '@mimamori/egress';
import type { Dispatcher } from 'undici';
import { deviceProfile } from '../browser/user-agent-presets.ts';
import {
  type AreaContent,
  type DocumentReader,
  type DocumentReadResult,
  type FetchRequest,
  type FetchResult,
  type PageFetcher,
  pageLocator,
} from '../domain/page-fetcher.ts';
import { presentedLocale } from '../domain/reader-locale.ts';
import { botProtectionMarker } from './bot-protection.ts';
import { CrawlFailure, shownUrl } from './crawl-failure.ts';
import {
  areaContent,
  detectContentKind,
  InvalidDocumentAreaError,
  readDocument,
  UnreadableDocumentError,
} from './document-areas.ts';
import { InvalidSelectorError, ParsedPage } from './parsed-page.ts';
import { type DocumentLimits, fetchServedDocument, type ServedDocument } from './served-document.ts';

/** The first pause between a check's tries of a page; it doubles after each. */
export const RETRY_DELAY_MS = 1_000;

export interface HttpPageFetcherOptions {
  /** `host:port` destinations the egress guard lets through: tests' loopback fixtures only. */
  allow?: readonly string[];
  /** Largest page (and iframe) read, compressed or not. */
  maxBytes?: number;
  /** What a page and the frames read with it may download together, as sent. */
  maxPageBytes?: number;
  maxRedirects?: number;
  /** Deadline for one attempt: every hop, the body and the iframes it needs. */
  timeoutMs?: number;
  attempts?: number;
  /** First pause between attempts; doubles each time. */
  retryDelayMs?: number;
}

/** What each kind of target asks the server for: some APIs and feeds answer by it. */
const ACCEPT = {
  page: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  pdf: 'application/pdf,*/*;q=0.8',
  json: 'application/json,*/*;q=0.8',
  xml: 'application/rss+xml,application/atom+xml,application/xml,text/xml;q=0.9,*/*;q=0.8',
} as const;

/** Sent when the site asked for no particular user agent: honest about being a robot. */
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; Mimamori/1.0; +https://mimamori.jp/bot)';

/**
 * The fast path: undici through the egress guard, the served HTML parsed once, each area
 * located by CSS selector or XPath (inside its iframe's own document when it has one).
 */
export function createHttpPageFetcher(options: HttpPageFetcherOptions = {}): PageFetcher & DocumentReader {
  const limits: DocumentLimits = {
    maxBytes: options.maxBytes ?? 5 * 1_048_576,
    maxRedirects: options.maxRedirects ?? 10,
  };
  const maxPageBytes = options.maxPageBytes ?? 2 * limits.maxBytes;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? 3;
  const retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;
  const allow = options.allow ?? [];
  const direct = createGuardedDispatcher({ allow });
  const proxied = new Map<string, Dispatcher>();
  const dispatcherFor = (proxyUrl: string | undefined) => {
    if (!proxyUrl) return direct;
    let dispatcher = proxied.get(proxyUrl);
    if (!dispatcher) {
      dispatcher = createGuardedDispatcher({ allow, upstreamProxy: proxyUrl });
      proxied.set(proxyUrl, dispatcher);
    }
    return dispatcher;
  };

  /**
   * Runs `work` under one attempt's deadline, aborted too when the caller aborts: one controller,
   * its timer cleared when the attempt ends (AbortSignal.timeout with AbortSignal.any cost some
   * 20 µs a check, a twentieth of it, and left a timer pending for the whole deadline after each).
   */
  const withDeadline = async <T>(
    signal: AbortSignal,
    work: (signal: AbortSignal, timedOut: () => boolean) => Promise<T>,
  ): Promise<T> => {
    const aborter = new AbortController();
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      aborter.abort(new DOMException('the check took longer than its deadline', 'TimeoutError'));
    }, timeoutMs);
    const forward = () => aborter.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    try {
      return await work(aborter.signal, () => timedOut);
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener('abort', forward);
    }
  };

  const attempt = (job: FetchRequest, signal: AbortSignal): Promise<FetchResult> =>
    withDeadline(signal, (deadlineSignal, timedOut) => attemptWithin(job, deadlineSignal, timedOut));

  const attemptWithin = async (
    job: FetchRequest,
    signal: AbortSignal,
    timedOut: () => boolean,
  ): Promise<FetchResult> => {
    const context = {
      dispatcher: dispatcherFor(job.proxyUrl),
      headers: requestHeaders(job),
      cookieJar: new Map<string, Map<string, string>>(),
      signal,
      timedOut,
      limits,
      budget: { bytesLeft: maxPageBytes, maxPageBytes },
    };
    const load = async (url: string) => checkServed(await fetchServedDocument({ ...context, url }));
    const top = await load(job.url);
    if (job.contentKind && job.contentKind !== 'page') return readDocumentAreas(job, top);
    const page = new ParsedPage(top.text);
    const frames = new Map<string, Promise<ParsedPage>>();
    const areas: AreaContent[] = [];
    const missing: string[] = [];
    let firstMissing = '';
    for (const area of job.areas) {
      let document = page;
      if (area.frame) {
        const frame = page.locate(area.frame);
        if (!frame?.src) {
          missing.push(`iframe ${describe(area.frame)}${frame ? ' (it has no src)' : ''}`);
          continue;
        }
        const frameUrl = new URL(frame.src, top.finalUrl).href;
        let loaded = frames.get(frameUrl);
        if (!loaded) {
          loaded = load(frameUrl).then((served) => new ParsedPage(served.text));
          frames.set(frameUrl, loaded);
        }
        document = await loaded;
      }
      const element = document.locate(pageLocator(area));
      if (!element) {
        missing.push(describe(pageLocator(area)));
        firstMissing ||= area.areaId;
      } else areas.push({ areaId: area.areaId, found: true, html: element.html, text: element.text });
    }
    if (missing.length > 0) {
      return new CrawlFailure(
        'element_not_found',
        `element not found: ${missing.join(', ')}`,
        false,
        firstMissing,
      ).toResult();
    }
    return { ok: true, finalUrl: top.finalUrl, status: top.status, areas };
  };

  return {
    async fetch(job, signal) {
      if (job.login || job.actions.length > 0 || job.screenshot !== 'none') {
        return new CrawlFailure(
          'invalid_job',
          'login, actions and screenshots need browser mode',
          false,
        ).toResult();
      }
      for (let tried = 1; ; tried += 1) {
        let failure: CrawlFailure;
        try {
          return await attempt(job, signal);
        } catch (error) {
          if (error instanceof InvalidSelectorError || error instanceof InvalidDocumentAreaError) {
            return new CrawlFailure('element_not_found', error.message, false).toResult();
          }
          if (!(error instanceof CrawlFailure)) throw error;
          failure = error;
        }
        if (!failure.retryable || tried >= attempts || signal.aborted) return failure.toResult();
        await sleep(retryDelayMs * 2 ** (tried - 1), undefined, { signal }).catch(() => undefined);
      }
    },
    readDocument(request, signal): Promise<DocumentReadResult> {
      return withDeadline(signal, async (deadlineSignal, timedOut) => {
        try {
          const top = checkServed(
            await fetchServedDocument({
              url: request.url,
              dispatcher: dispatcherFor(request.proxyUrl),
              headers: requestHeaders({ ...request, contentKind: request.contentKind ?? 'page' }),
              cookieJar: new Map(),
              signal: deadlineSignal,
              timedOut,
              limits,
              budget: { bytesLeft: limits.maxBytes, maxPageBytes: limits.maxBytes },
            }),
          );
          const detectedKind = detectContentKind(top.headers['content-type'], top.body);
          const kind = request.contentKind ?? detectedKind;
          const base = { ok: true as const, finalUrl: top.finalUrl, detectedKind };
          if (kind === 'page')
            return { ...base, contentKind: 'page', lines: [], moreLines: false, areas: [] };
          const document = await readDocument(kind, top.body, top.text);
          const lines = document.lines();
          return {
            ...base,
            contentKind: kind,
            lines: lines.slice(0, PREVIEW_LINES).map((line) => line.slice(0, PREVIEW_LINE_LENGTH)),
            moreLines: lines.length > PREVIEW_LINES,
            areas: request.areas.map((area) => {
              try {
                const found = document.area(area);
                return found
                  ? { ...areaContent(area.areaId, found), found: true }
                  : { areaId: area.areaId, found: false, text: '', html: '' };
              } catch (error) {
                if (!(error instanceof InvalidDocumentAreaError)) throw error;
                return { areaId: area.areaId, found: false, text: '', html: '', problem: 'selector_invalid' };
              }
            }),
          };
        } catch (error) {
          if (error instanceof UnreadableDocumentError)
            return {
              ok: false,
              code: 'element_not_found',
              detail: `${shownUrl(request.url)} is ${error.message}`,
            };
          if (error instanceof CrawlFailure) return { ok: false, code: error.code, detail: error.detail };
          throw error;
        }
      });
    },
    async close() {
      await Promise.all([direct, ...proxied.values()].map((dispatcher) => dispatcher.close()));
    },
  };
}

/**
 * A PDF, JSON or XML target's areas, read from the document as served: each area's lines, or
 * element_not_found naming every area nothing matched (docs/product.md#documents-and-data).
 */
async function readDocumentAreas(job: FetchRequest, top: ServedDocument): Promise<FetchResult> {
  const kind = job.contentKind === 'pdf' || job.contentKind === 'json' ? job.contentKind : 'xml';
  let document: Awaited<ReturnType<typeof readDocument>>;
  try {
    document = await readDocument(kind, top.body, top.text);
  } catch (error) {
    if (!(error instanceof UnreadableDocumentError)) throw error;
    // The URL no longer serves what the target watches (an error page, a moved file): as for a page
    // whose element is gone, the user is told to check the target.
    return new CrawlFailure(
      'element_not_found',
      `${shownUrl(top.finalUrl)} is ${error.message}`,
      false,
      job.areas[0]?.areaId,
    ).toResult();
  }
  const areas: AreaContent[] = [];
  const missing: string[] = [];
  let firstMissing = '';
  for (const area of job.areas) {
    const lines = document.area(area);
    if (lines) areas.push(areaContent(area.areaId, lines));
    else {
      missing.push(`${area.selectorType} ${JSON.stringify(area.selector)}`);
      firstMissing ||= area.areaId;
    }
  }
  if (missing.length > 0) {
    return new CrawlFailure(
      'element_not_found',
      `nothing in the ${kind.toUpperCase()} matches ${missing.join(', ')}`,
      false,
      firstMissing,
    ).toResult();
  }
  return { ok: true, finalUrl: top.finalUrl, status: top.status, areas };
}

/** What the wizard shows of a document: enough to write its areas by, never the whole of a large one. */
const PREVIEW_LINES = 300;
const PREVIEW_LINE_LENGTH = 500;

function requestHeaders(
  job: Pick<FetchRequest, 'userAgent' | 'viewport' | 'reader' | 'cookies' | 'contentKind'>,
): Record<string, string> {
  const profile = deviceProfile(job.userAgent, job.viewport);
  return {
    'user-agent': profile.userAgent ?? DEFAULT_USER_AGENT,
    accept: ACCEPT[job.contentKind ?? 'page'],
    // Sites choose the language by this; without a reader, Japanese first as before.
    'accept-language': presentedLocale(job.reader)?.acceptLanguage ?? 'ja,en;q=0.8',
    'accept-encoding': 'gzip, deflate, br',
    ...(profile.isMobile ? { 'sec-ch-ua-mobile': '?1' } : {}),
    ...(job.cookies ? { cookie: job.cookies } : {}),
  };
}

/** The page as served must be the page: not an error status and not a robot wall. */
function checkServed(served: ServedDocument): ServedDocument {
  const marker = botProtectionMarker(served.status, served.headers, served.text.slice(0, 65_536));
  if (marker) {
    throw new CrawlFailure(
      'blocked_by_robot',
      `${marker} blocked the request to ${shownUrl(served.finalUrl)} (HTTP ${served.status})`,
      false,
    );
  }
  if (served.status >= 200 && served.status < 300) return served;
  // Server errors and rate limits pass; a missing page stays missing until someone fixes the URL.
  const retryable = served.status >= 500 || served.status === 429 || served.status === 408;
  throw new CrawlFailure('http_status', `HTTP ${served.status} from ${shownUrl(served.finalUrl)}`, retryable);
}

function describe(locator: { selector: string; selectorType: 'css' | 'xpath' }): string {
  return `${locator.selectorType === 'xpath' ? 'XPath' : 'CSS'} ${JSON.stringify(locator.selector)}`;
}
