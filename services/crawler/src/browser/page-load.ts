import { setTimeout as sleep } from 'node:timers/promises';
import type { EgressGuard } from '@mimamori/egress';
import { errors, type Page, type Request, type Response, type Route } from 'playwright-core';
import { botProtectionMarker } from '../http/bot-protection.ts';
import { CrawlFailure, shownUrl } from '../http/crawl-failure.ts';
import { isolatedWorld } from './isolated-world.ts';
import { PAGE_FACTS, WAIT_DOM_QUIET } from './page-scripts.ts';

export interface LoadLimits {
  /** For the document and then its load event (about 30 s, docs/product.md#checks). */
  loadTimeoutMs: number;
  /** Optimised loading after it: network idle or DOM stable, at most this long (about 30 s). */
  settleTimeoutMs: number;
  /** How long the DOM must stay unchanged to count as stable, with no request in flight. */
  quietMs: number;
  /** How long it must stay unchanged while requests are still pending (long polls never finish). */
  busyQuietMs: number;
  maxRedirects: number;
  /** The served document, decoded. */
  maxDocumentBytes: number;
  /** Everything the page downloads, document and sub-resources together, as sent on the wire. */
  maxPageBytes: number;
  /** Elements in the rendered document (script-built pages never have a served size). */
  maxElements: number;
}

export const DEFAULT_LOAD_LIMITS: LoadLimits = {
  loadTimeoutMs: 30_000,
  settleTimeoutMs: 30_000,
  // Content that waits on the network is covered by the request count, so the quiet window
  // only has to outlast a page's own timers and frames after its last request (ADR 0017).
  quietMs: 250,
  busyQuietMs: 2_500,
  maxRedirects: 10,
  maxDocumentBytes: 15 * 1024 * 1024,
  maxPageBytes: 50 * 1024 * 1024,
  maxElements: 300_000,
};

const REFUSED_HEADER = 'x-refused-address';

/**
 * Opens `url` in `page` and waits for it to settle. Throws CrawlFailure for every way a page
 * can fail to load, with a code that tells a refused address, a timeout, a robot wall, an
 * error status and an unreachable site apart.
 */
export async function loadPage(
  page: Page,
  url: string,
  limits: LoadLimits,
  guard: EgressGuard,
): Promise<Response> {
  if (!/^https?:$/.test(new URL(url).protocol)) {
    throw new CrawlFailure(
      'refused_address',
      `refused ${shownUrl(url)}: only http and https are fetched`,
      false,
    );
  }
  // A warm page may still show this very document (another area of the same account's app, at
  // another #fragment): going there would only scroll, load nothing and answer no response.
  if (page.url() !== 'about:blank' && withoutFragment(page.url()) === withoutFragment(url)) {
    await page.goto('about:blank');
  }
  trackRequests(page);
  // A new load starts a new record: a warm page's earlier refusal is not this check's.
  const refusals = trackRefusals(page, guard);
  refusals.forget();
  const download = await trackDownload(page, limits.maxPageBytes);
  let failedDocument: string | undefined;
  const onFailed = (request: { isNavigationRequest(): boolean; url(): string }) => {
    if (request.isNavigationRequest()) failedDocument = request.url();
  };
  page.on('requestfailed', onFailed);
  let response: Response | null;
  const started = Date.now();
  try {
    // A document that alone passes the download cap never reaches DOMContentLoaded.
    response = await Promise.race([
      page.goto(url, { waitUntil: 'domcontentloaded', timeout: limits.loadTimeoutMs }),
      download.stopped.then((failure) => Promise.reject(failure)),
    ]);
  } catch (error) {
    throw (await refusals.failure(url)) ?? navigationFailure(error, failedDocument ?? url);
  } finally {
    page.off('requestfailed', onFailed);
  }
  if (!response) throw new CrawlFailure('unreachable', `no response from ${shownUrl(url)}`, true);
  await throwIfPageStopped(page, url);
  await checkResponse(page, response, limits);
  // A sub-resource that never finishes (a hung tracker or frame) holds the load event back;
  // the document is there, so the page is read after its load time rather than failed.
  const loadLeft = Math.max(1, limits.loadTimeoutMs - (Date.now() - started));
  await page.waitForLoadState('load', { timeout: loadLeft }).catch(() => undefined);
  await settle(page, limits);
  await throwIfPageStopped(page, url);
  await checkSettledPage(page, response, limits);
  return response;
}

function withoutFragment(url: string): string {
  const at = url.indexOf('#');
  return at < 0 ? url : url.slice(0, at);
}

/**
 * Throws the refused-address failure when the page tried to go somewhere the guard refuses (a
 * redirect, a meta refresh, `location = …`, a link an action clicked), at any time since it was
 * first loaded: what is left on screen then is the guard's refusal, not the page. A frame sent
 * somewhere refused is dropped like a sub-resource, as a person's browser would still show the
 * page around it, unless `framesToo` (an area is read inside a frame, which then shows only the
 * guard's answer). Sub-resources are not navigations: refusing them leaves the page readable.
 */
export async function throwIfPageStopped(
  page: Page,
  url: string,
  { framesToo = false }: { framesToo?: boolean } = {},
): Promise<void> {
  const failure = (await refusalsOf(page)?.failure(url, framesToo)) ?? downloads.get(page)?.failure;
  if (failure) throw failure;
}

interface Download {
  received: number;
  maxPageBytes: number;
  /** Set once the cap is passed; the load's `stopped` resolves with it. */
  failure?: CrawlFailure;
  stop: (failure: CrawlFailure) => void;
}

const downloads = new WeakMap<Page, Download>();

/**
 * Counts the bytes the page receives (document, frames, scripts, images, fetches) as they
 * arrive, from each load on, and once they pass `maxPageBytes` stops the page and refuses
 * anything more, so a page cannot pull an unbounded amount through the crawler. The check then
 * fails as too large.
 */
async function trackDownload(page: Page, maxPageBytes: number): Promise<{ stopped: Promise<CrawlFailure> }> {
  let stop: (failure: CrawlFailure) => void = () => undefined;
  // Only ever resolved, and only raced: left pending, it holds nothing once the page is gone.
  const stopped = new Promise<CrawlFailure>((resolve) => {
    stop = resolve;
  });
  const known = downloads.get(page);
  if (known) {
    // Only a page stopped at the cap has the abort route, and taking a route off costs a round
    // trip to the browser, which re-arms its request interception.
    if (known.failure) await page.unroute('**/*', abortAll).catch(() => undefined);
    Object.assign(known, { received: 0, maxPageBytes, failure: undefined, stop });
    return { stopped };
  }
  const count: Download = { received: 0, maxPageBytes, stop };
  downloads.set(page, count);
  const session = await page.context().newCDPSession(page);
  await session.send('Network.enable');
  session.on('Network.dataReceived', ({ encodedDataLength, dataLength }) => {
    count.received += encodedDataLength > 0 ? encodedDataLength : dataLength;
    if (count.received <= count.maxPageBytes || count.failure) return;
    count.failure = new CrawlFailure(
      'too_large',
      `the page and its resources came to more than ${Math.round(count.maxPageBytes / 1_048_576)} MB`,
      false,
    );
    count.stop(count.failure);
    void page.route('**/*', abortAll).catch(() => undefined);
    void session.send('Page.stopLoading').catch(() => undefined);
  });
  return { stopped };
}

const abortAll = (route: Route) => void route.abort().catch(() => undefined);

interface RefusalTracker {
  /**
   * The refusal as the user is told it, naming the URL they gave; undefined when there was none.
   * Frames' refusals count only with `framesToo`.
   */
  failure(url: string, framesToo?: boolean): Promise<CrawlFailure | undefined>;
  forget(): void;
}

const refusalTrackers = new WeakMap<Page, RefusalTracker>();

function refusalsOf(page: Page): RefusalTracker | undefined {
  return refusalTrackers.get(page);
}

function trackRefusals(page: Page, guard: EgressGuard): RefusalTracker {
  let tracker = refusalTrackers.get(page);
  if (tracker) return tracker;
  let reasons: { inFrame: boolean; reason: Promise<string | undefined> }[] = [];
  const inFrame = (request: Request) => {
    try {
      return request.frame() !== page.mainFrame();
    } catch {
      return false;
    }
  };
  page.on('response', (response) => {
    const refused = response.headers()[REFUSED_HEADER];
    const request = response.request();
    if (refused && response.status() === 403 && request.isNavigationRequest()) {
      reasons.push({ inFrame: inFrame(request), reason: Promise.resolve(refused) });
    }
  });
  page.on('requestfailed', (request) => {
    if (!request.isNavigationRequest()) return;
    const failure = request.failure()?.errorText ?? '';
    if (failure.includes('ERR_UNSAFE_REDIRECT')) {
      reasons.push({
        inFrame: inFrame(request),
        reason: Promise.resolve('refused a redirect to a URL other than http and https'),
      });
    } else if (failure.includes('ERR_TUNNEL_CONNECTION_FAILED')) {
      // An https refusal only shows as a failed tunnel; ask the same guard why.
      reasons.push({
        inFrame: inFrame(request),
        reason: guard.checkUrl(request.url()).then(
          () => undefined,
          (cause: Error) => (cause.name === 'RefusedAddressError' ? cause.message : undefined),
        ),
      });
    }
  });
  tracker = {
    forget() {
      reasons = [];
    },
    async failure(url, framesToo = false) {
      const counted = reasons.filter((entry) => framesToo || !entry.inFrame).map((entry) => entry.reason);
      const [reason] = (await Promise.all(counted)).filter((found) => found !== undefined);
      if (reason === undefined) return undefined;
      return new CrawlFailure(
        'refused_address',
        `${shownUrl(url)} led to a refused destination: ${reason}`,
        false,
      );
    },
  };
  refusalTrackers.set(page, tracker);
  return tracker;
}

function navigationFailure(error: unknown, failedUrl: string): CrawlFailure {
  if (error instanceof CrawlFailure) return error;
  if (error instanceof errors.TimeoutError) {
    return new CrawlFailure('timeout', `the page did not finish loading: ${shownUrl(failedUrl)}`, true);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes('ERR_TOO_MANY_REDIRECTS')) {
    return new CrawlFailure('too_many_redirects', `too many redirects from ${shownUrl(failedUrl)}`, false);
  }
  if (message.includes('ERR_UNSAFE_PORT')) {
    return new CrawlFailure(
      'refused_address',
      `the browser refuses the port of ${shownUrl(failedUrl)}`,
      false,
    );
  }
  if (/Target .*closed|browser has been closed|Target crashed/i.test(message)) throw error;
  const reason = /net::[A-Z_]+/.exec(message)?.[0] ?? 'the connection failed';
  return new CrawlFailure('unreachable', `${reason} at ${shownUrl(failedUrl)}`, true);
}

async function checkResponse(page: Page, response: Response, limits: LoadLimits) {
  let hops = 0;
  for (let request = response.request().redirectedFrom(); request; request = request.redirectedFrom()) hops++;
  if (hops > limits.maxRedirects) {
    throw new CrawlFailure('too_many_redirects', `${hops} redirects (at most ${limits.maxRedirects})`, false);
  }
  const status = response.status();
  if (status < 400) return;
  const facts = await pageFacts(page);
  const marker = botProtectionMarker(status, response.headers(), facts.markup);
  if (marker) throw new CrawlFailure('blocked_by_robot', `HTTP ${status}: ${marker}`, true);
  throw new CrawlFailure(
    'http_status',
    `HTTP ${status} from ${shownUrl(response.url())}`,
    status >= 500 || status === 429,
  );
}

interface PageFacts {
  documentBytes: number;
  elements: number;
  markup: string;
}

/** Bot-protection markers sit near the top of a page; the rest need not be serialised. */
const MARKUP_FOR_MARKERS = 200_000;

function pageFacts(page: Page): Promise<PageFacts> {
  return isolatedWorld(page).then((world) =>
    world.evaluate<PageFacts>(PAGE_FACTS, { markup: MARKUP_FOR_MARKERS }),
  );
}

/**
 * Optimised loading: done when the DOM has been quiet for `quietMs` with no request in flight,
 * or quiet for `busyQuietMs` even with requests pending (long polls never finish), or when
 * `settleTimeoutMs` runs out, in which case the page is read as it is.
 */
export async function settle(page: Page, limits: LoadLimits): Promise<void> {
  const inFlight = trackRequests(page);
  const deadline = Date.now() + limits.settleTimeoutMs;
  const quietFor = async (quietMs: number) => {
    const world = await isolatedWorld(page);
    return world.evaluate<boolean>(WAIT_DOM_QUIET, { quietMs, maxMs: Math.max(0, deadline - Date.now()) });
  };
  while (Date.now() < deadline) {
    try {
      if (!(await quietFor(limits.quietMs))) return;
      if (inFlight.count() === 0) return;
      const longQuiet = await Promise.race([inFlight.idle().then(() => false), quietFor(limits.busyQuietMs)]);
      if (longQuiet) return;
    } catch (error) {
      // A navigation (client-side redirect) replaced the document mid-wait: wait on the new one.
      if (page.isClosed()) throw error;
      await page
        .waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) })
        .catch(() => undefined);
      // Never spin: a document that keeps failing the wait is tried again after a pause.
      await sleep(50);
    }
  }
}

async function checkSettledPage(page: Page, response: Response, limits: LoadLimits) {
  const facts = await pageFacts(page);
  if (facts.documentBytes > limits.maxDocumentBytes) {
    throw new CrawlFailure(
      'too_large',
      `the page is ${facts.documentBytes} bytes (at most ${limits.maxDocumentBytes})`,
      false,
    );
  }
  if (facts.elements > limits.maxElements) {
    throw new CrawlFailure(
      'too_large',
      `the page has ${facts.elements} elements (at most ${limits.maxElements})`,
      false,
    );
  }
  const marker = botProtectionMarker(response.status(), response.headers(), facts.markup);
  if (marker) throw new CrawlFailure('blocked_by_robot', marker, true);
}

interface RequestCounter {
  count(): number;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
}

const counters = new WeakMap<Page, RequestCounter>();

/** Requests the page has in flight, counted from its first load on. */
function trackRequests(page: Page): RequestCounter {
  let counter = counters.get(page);
  if (counter) return counter;
  const pending = new Set<unknown>();
  let waiters: (() => void)[] = [];
  const done = (request: unknown) => {
    pending.delete(request);
    if (pending.size > 0) return;
    for (const waiter of waiters) waiter();
    waiters = [];
  };
  page.on('request', (request) => pending.add(request));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  counter = {
    count: () => pending.size,
    idle: () =>
      pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
  };
  counters.set(page, counter);
  return counter;
}
