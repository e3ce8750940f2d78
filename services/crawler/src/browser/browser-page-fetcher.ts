import type { FetchRequest, FetchResult, PageFetcher } from '../domain/page-fetcher.ts';
import { presentedLocale } from '../domain/reader-locale.ts';
import { CrawlFailure } from '../http/crawl-failure.ts';
import { BrowserCrashedError, type BrowserPool, type ContextSpec } from './browser-pool.ts';
import { checkOnPage, DEFAULT_ACTION_LIMITS } from './check-on-page.ts';
import type { ActionLimits } from './page-actions.ts';
import { deviceProfile } from './user-agent-presets.ts';

export interface BrowserFetcherOptions {
  pool: BrowserPool;
  limits?: Partial<ActionLimits>;
  /** Page reads per check before a transient failure is reported (up to 3, docs/product.md#checks). */
  attempts?: number;
}

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
      return await pool.run(contextSpec(request), (lease) =>
        checkOnPage(lease, request, { limits, guard: pool.guard, signal }),
      );
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

function contextSpec(request: FetchRequest): ContextSpec {
  const device = deviceProfile(request.userAgent, request.viewport);
  const locale = presentedLocale(request.reader);
  const spec: ContextSpec = {
    device,
    ...(locale ? { locale } : {}),
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
    warmKey: JSON.stringify([
      request.accountId,
      device,
      spec.blockImages,
      request.proxyUrl ?? '',
      locale ?? null,
    ]),
  };
}
