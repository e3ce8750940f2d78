import { createHash } from 'node:crypto';
import { createGuardedDispatcher } from '@mimamori/egress';
import { LRUCache } from 'lru-cache';
import type { Dispatcher } from 'undici';
import { areasDigest } from '../domain/areas-digest.ts';
import type { FetchRequest, FetchResult, PageFetcher } from '../domain/page-fetcher.ts';
import { presentedLocale } from '../domain/reader-locale.ts';
import {
  afterRender,
  confirmsKept,
  DEFAULT_REVALIDATION_POLICY,
  keptRevalidationState,
  mayRevalidate,
  newerState,
  parseRevalidationState,
  type RevalidationPolicy,
  type RevalidationState,
} from '../domain/revalidation.ts';
import { CrawlFailure } from '../http/crawl-failure.ts';
import { sameAnswersNow } from '../http/revalidate-requests.ts';
import { BrowserCrashedError, type BrowserPool, type ContextSpec } from './browser-pool.ts';
import { checkOnPage, DEFAULT_ACTION_LIMITS } from './check-on-page.ts';
import type { ActionLimits } from './page-actions.ts';
import { perturbationScript, READS_SCRIPT, readClockOrChance } from './perturbed-render.ts';
import { type Recording, recordRequests } from './request-recorder.ts';
import { deviceProfile } from './user-agent-presets.ts';

export interface BrowserFetcherOptions {
  pool: BrowserPool;
  limits?: Partial<ActionLimits>;
  /** Page reads per check before a transient failure is reported (up to 3, docs/product.md#checks). */
  attempts?: number;
  /**
   * `host:port` destinations the egress guard lets through when a check's requests are asked
   * again over HTTP (tests' loopback fixtures only; the pool's own for the browser).
   */
  allow?: readonly string[];
  /** When a check may be answered by asking the page's requests again (ADR 0031); false: never. */
  revalidation?: RevalidationPolicy | false;
  /** The product's clock, for the revalidation's time limit. */
  now?: () => number;
  /** Draws the number that picks the checks rendered whatever the answers (tests fix it). */
  draw?: () => number;
  /** How many bytes of the newest revalidation states are remembered, per crawler (ADR 0031). */
  rememberedStateBytes?: number;
}

/**
 * 16 MiB: a replica's share of 10,000 sites, a fifth of them in the browser, at their usual
 * 1.6 KB; a site whose state was forgotten takes the one its check carries.
 */
const REMEMBERED_STATE_BYTES = 16 * 1024 * 1024;

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

  const policy = options.revalidation === undefined ? DEFAULT_REVALIDATION_POLICY : options.revalidation;
  const now = options.now ?? Date.now;
  const draw = options.draw ?? Math.random;
  // The newest state rendered per site and settings: while checks queue faster than they are
  // done, those dispatched before the site's last render kept its state would otherwise all render.
  const remembered = new LRUCache<string, { state: RevalidationState; bytes: number }>({
    maxSize: options.rememberedStateBytes ?? REMEMBERED_STATE_BYTES,
    sizeCalculation: (entry) => entry.bytes,
  });
  const direct = createGuardedDispatcher({ allow: options.allow ?? [] });
  const proxied = new Map<string, Dispatcher>();
  const dispatcherFor = (proxyUrl: string | undefined) => {
    if (!proxyUrl) return direct;
    let dispatcher = proxied.get(proxyUrl);
    if (!dispatcher) {
      dispatcher = createGuardedDispatcher({ allow: options.allow ?? [], upstreamProxy: proxyUrl });
      proxied.set(proxyUrl, dispatcher);
    }
    return dispatcher;
  };

  type Rendered = { result: FetchResult; recording?: Recording & { readsClockOrChance: boolean } };

  async function attempt(
    request: FetchRequest,
    signal: AbortSignal,
    { record, initScript }: { record: boolean; initScript?: string },
  ): Promise<Rendered> {
    const spec = contextSpec(request, record);
    try {
      return await pool.run(initScript ? { ...withoutWarmKey(spec), initScript } : spec, async (lease) => {
        const recorder = record ? recordRequests(lease.context) : undefined;
        try {
          const result = await checkOnPage(lease, request, { limits, guard: pool.guard, signal });
          if (!recorder) return { result };
          const recording = await recorder.finish();
          const reads = result.ok && (await readClockOrChance(lease.page.frames()));
          return { result, recording: { ...recording, readsClockOrChance: reads } };
        } catch (error) {
          await recorder?.finish();
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof CrawlFailure) return { result: error.toResult() };
      if (error instanceof BrowserCrashedError) {
        return { result: { ok: false, code: 'browser_crashed', detail: error.message, retryable: true } };
      }
      if (signal.aborted)
        return { result: { ok: false, code: 'timeout', detail: 'the check was cancelled', retryable: true } };
      // Playwright's own messages may quote what was typed into a field; only the kind is kept.
      const kind = error instanceof Error ? error.name : 'unknown';
      return {
        result: { ok: false, code: 'unreachable', detail: `the browser failed (${kind})`, retryable: true },
      };
    }
  }

  async function render(
    request: FetchRequest,
    signal: AbortSignal,
    how: { record: boolean; initScript?: string },
  ): Promise<Rendered> {
    let rendered: Rendered = {
      result: { ok: false, code: 'unreachable', detail: 'not attempted', retryable: true },
    };
    for (let tried = 1; tried <= attempts && !signal.aborted; tried++) {
      rendered = await attempt(request, signal, how);
      const { result } = rendered;
      if (result.ok || !result.retryable || !RETRIED_IN_CHECK.has(result.code)) return rendered;
    }
    return rendered;
  }

  /**
   * Renders the page twice more, its clock moved and its random numbers pushed low and then
   * high: the same areas all three times mean they come from the page's answers (ADR 0031).
   */
  async function verify(
    request: FetchRequest,
    digest: string,
    signal: AbortSignal,
  ): Promise<'verified' | 'volatile' | 'failed'> {
    const plain = { ...request, screenshot: 'none' as const };
    for (const half of ['low', 'high'] as const) {
      const { result } = await render(plain, signal, { record: false, initScript: perturbationScript(half) });
      if (!result.ok) return 'failed';
      if (areasDigest(result.areas) !== digest) return 'volatile';
    }
    return 'verified';
  }

  return {
    async fetch(request, signal) {
      const settings = settingsKey(request);
      const record = Boolean(policy) && request.revalidate === true;
      // Keyed by account and site as well as settings: a state never serves another site.
      const memoryKey =
        record && request.targetId ? `${request.accountId ?? ''} ${request.targetId} ${settings}` : '';
      const carried = record ? parseRevalidationState(request.revalidation) : undefined;
      const kept = newerState(carried, memoryKey ? remembered.get(memoryKey)?.state : undefined);
      if (policy && record && mayRevalidate(kept, settings, now(), policy, draw())) {
        const answers = await sameAnswersNow(kept.requests, dispatcherFor(request.proxyUrl), signal);
        if (answers.same) return revalidated(request, kept);
      }
      const { result, recording } = await render(request, signal, { record });
      if (!policy || !record || !recording || !result.ok) return result;
      const digest = areasDigest(result.areas);
      let state = afterRender(kept, {
        v: 1,
        settings,
        requests: recording.requests,
        result: {
          finalUrl: result.finalUrl,
          status: result.status,
          areas: result.areas.map(({ areaId, found, html, text }) => ({ areaId, found, html, text })),
          areasDigest: digest,
        },
        renderedAt: now(),
        ...(recording.unfit ? { unfit: recording.unfit } : {}),
      });
      if (!state.verified && !state.volatile && !state.unfit) {
        // A page that read neither the clock nor chance read its areas from its answers alone.
        const verdict = recording.readsClockOrChance ? await verify(request, digest, signal) : 'verified';
        state =
          verdict === 'verified'
            ? { ...state, verified: true }
            : verdict === 'volatile'
              ? { ...state, volatile: true }
              : { ...state, unfit: 'the verification render failed' };
      }
      if (confirmsKept(kept, state, policy)) return { ...result, rendered: true };
      const text = keptRevalidationState(state);
      if (memoryKey) {
        // A state too large to keep leaves none, here as with the scheduler.
        if (text) remembered.set(memoryKey, { state, bytes: text.length });
        else remembered.delete(memoryKey);
      }
      return { ...result, rendered: true, ...(text ? { revalidation: text } : {}) };
    },
    async close() {
      await pool.close();
      await Promise.allSettled([
        direct.destroy(),
        ...[...proxied.values()].map((dispatcher) => dispatcher.destroy()),
      ]);
    },
  };
}

/**
 * Nothing the page was asked for changed: the last render's reading stands. The kept state
 * stays as it is, so the check leaves nothing new to keep.
 */
function revalidated(request: FetchRequest, state: RevalidationState): FetchResult {
  const { finalUrl, status, areas, areasDigest: digest } = state.result;
  return {
    ok: true,
    finalUrl,
    status,
    areas: areas.map((area) => ({ ...area })),
    rendered: false,
    // The same reading as the last render: its pictures stand (ADR 0016).
    ...(request.screenshot === 'none' ? {} : { areasDigest: digest }),
    ...(request.sessionState ? { sessionState: request.sessionState } : {}),
  };
}

/** What a recording is only good for: a check with other settings reads another way. */
function settingsKey(request: FetchRequest): string {
  // Hashed: the settings hold the site's cookies and login.
  const settings = JSON.stringify([
    request.url,
    request.areas,
    request.actions,
    request.userAgent,
    request.viewport ?? null,
    request.cookies ?? '',
    request.login ?? null,
    request.proxyUrl ?? '',
    request.reader ?? null,
  ]);
  return createHash('sha256').update(settings).digest('hex');
}

function withoutWarmKey(spec: ContextSpec): ContextSpec {
  const { warmKey: _warm, ...fresh } = spec;
  return fresh;
}

function contextSpec(request: FetchRequest, record: boolean): ContextSpec {
  const device = deviceProfile(request.userAgent, request.viewport);
  const locale = presentedLocale(request.reader);
  const spec: ContextSpec = {
    device,
    ...(locale ? { locale } : {}),
    blockImages: request.screenshot === 'none',
    ...(request.proxyUrl ? { upstreamProxy: request.proxyUrl } : {}),
    ...(request.sessionState ? { storageState: request.sessionState } : {}),
    ...(record ? { initScript: READS_SCRIPT } : {}),
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
      record,
    ]),
  };
}
