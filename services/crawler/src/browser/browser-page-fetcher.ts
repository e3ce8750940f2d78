import type { Page } from 'playwright-core';
import type { AreaContent, FetchRequest, FetchResult, PageFetcher } from '../domain/page-fetcher.ts';
import { CrawlFailure } from '../http/crawl-failure.ts';
import { readAreas } from './area-reader.ts';
import { BrowserCrashedError, type BrowserPool, type ContextSpec, type LeasedPage } from './browser-pool.ts';
import { cookiesFromHeader } from './cookie-header.ts';
import { ensureSignedIn } from './login.ts';
import { type ActionLimits, describe, runActions } from './page-actions.ts';
import { DEFAULT_LOAD_LIMITS, loadPage } from './page-load.ts';
import { captureArea, capturePage } from './screenshot-capture.ts';
import type { EncodedImage } from './screenshot-encoding.ts';
import { deviceProfile } from './user-agent-presets.ts';

export interface BrowserFetcherOptions {
  pool: BrowserPool;
  limits?: Partial<ActionLimits>;
  /** Page reads per check before a transient failure is reported (spec: up to 3). */
  attempts?: number;
}

export const DEFAULT_ACTION_LIMITS: ActionLimits = { ...DEFAULT_LOAD_LIMITS, actionTimeoutMs: 10_000 };

/** Failures another attempt may cure within the same check. */
const RETRIED_IN_CHECK = new Set(['timeout', 'unreachable', 'browser_crashed']);

/**
 * Browser mode: each check runs in its own context of a long-lived Chromium (or the warm
 * context of the same account's previous check), replays the login and actions, reads the
 * areas in an isolated world and takes the screenshots asked for.
 */
export function createBrowserPageFetcher(options: BrowserFetcherOptions): PageFetcher {
  const limits: ActionLimits = { ...DEFAULT_ACTION_LIMITS, ...options.limits };
  const attempts = options.attempts ?? 3;
  const { pool } = options;

  async function attempt(request: FetchRequest, signal: AbortSignal): Promise<FetchResult> {
    try {
      return await pool.run(contextSpec(request), (lease) => check(lease, request, signal));
    } catch (error) {
      if (error instanceof CrawlFailure) return error.toResult();
      if (error instanceof BrowserCrashedError) {
        return { ok: false, code: 'browser_crashed', detail: error.message, retryable: true };
      }
      if (signal.aborted)
        return { ok: false, code: 'timeout', detail: 'the check was cancelled', retryable: true };
      // Playwright's own messages may quote what was typed into a field; only the kind is kept.
      const kind = error instanceof Error ? error.name : 'unknown';
      return { ok: false, code: 'unreachable', detail: `the browser failed (${kind})`, retryable: true };
    }
  }

  async function check(lease: LeasedPage, request: FetchRequest, signal: AbortSignal): Promise<FetchResult> {
    const { page, context } = lease;
    const abort = () => void page.close().catch(() => undefined);
    signal.addEventListener('abort', abort, { once: true });
    try {
      if (request.cookies) await context.addCookies(cookiesFromHeader(request.cookies, request.url));
      const response = request.login
        ? await ensureSignedIn(page, request.url, request.login, limits, pool.guard)
        : await loadPage(page, request.url, limits, pool.guard);
      if (request.actions.length > 0) await runActions(page, request.actions, limits, pool.guard);
      const areas = await readCheckedAreas(page, request);
      const pageScreenshot = request.screenshot === 'page' ? imageOnly(await capturePage(page)) : undefined;
      const keepsSession = Boolean(request.login || request.sessionState);
      return {
        ok: true,
        finalUrl: page.url(),
        status: response.status(),
        areas,
        ...(pageScreenshot ? { pageScreenshot } : {}),
        ...(keepsSession ? { sessionState: JSON.stringify(await context.storageState()) } : {}),
      };
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  async function readCheckedAreas(page: Page, request: FetchRequest): Promise<AreaContent[]> {
    const readings = await readAreas(page, request.areas);
    const missing = readings.findIndex((reading) => !reading.found);
    const area = request.areas[missing];
    if (area) {
      const frame = readings[missing]?.missingFrame;
      const what = frame
        ? `iframe not found: ${area.frame?.selectorType} ${frame}`
        : `element not found: ${describe(area)}`;
      throw new CrawlFailure('element_not_found', what, false);
    }
    const contents: AreaContent[] = [];
    for (const reading of readings) {
      const screenshot =
        request.screenshot === 'areas' && reading.box
          ? imageOnly(await captureArea(page, reading.box))
          : undefined;
      contents.push({
        areaId: reading.areaId,
        found: reading.found,
        html: reading.html,
        text: reading.text,
        ...(screenshot ? { screenshot } : {}),
      });
    }
    return contents;
  }

  return {
    async fetch(request, signal) {
      let result: FetchResult = { ok: false, code: 'unreachable', detail: 'not attempted', retryable: true };
      for (let tried = 1; tried <= attempts && !signal.aborted; tried++) {
        result = await attempt(request, signal);
        if (result.ok || !result.retryable || !RETRIED_IN_CHECK.has(result.code)) return result;
      }
      return result;
    },
    close: () => pool.close(),
  };
}

const imageOnly = ({ data, contentType }: EncodedImage) => ({ data, contentType });

function contextSpec(request: FetchRequest): ContextSpec {
  const device = deviceProfile(request.userAgent, request.viewport);
  const spec: ContextSpec = {
    device,
    blockImages: request.screenshot === 'none',
    ...(request.proxyUrl ? { upstreamProxy: request.proxyUrl } : {}),
    ...(request.sessionState ? { storageState: request.sessionState } : {}),
  };
  // A warm context carries the previous check's cookies, so only checks without their own
  // session, cookies or login share one, and only within the same account.
  const shareable = request.accountId && !request.login && !request.sessionState && !request.cookies;
  if (!shareable) return spec;
  return {
    ...spec,
    warmKey: JSON.stringify([request.accountId, device, spec.blockImages, request.proxyUrl ?? '']),
  };
}
