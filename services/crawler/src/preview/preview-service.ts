import type { Page } from 'playwright-core';
import { suggestAreaName } from '../browser/area-name.ts';
import { readAreas } from '../browser/area-reader.ts';
import type { BrowserPool } from '../browser/browser-pool.ts';
import { DEFAULT_ACTION_LIMITS } from '../browser/check-on-page.ts';
import { cookiesFromHeader } from '../browser/cookie-header.ts';
import { FrameNotFoundError } from '../browser/isolated-world.ts';
import { ensureSignedIn } from '../browser/login.ts';
import { type ActionLimits, runActions } from '../browser/page-actions.ts';
import { loadPage, throwIfPageStopped } from '../browser/page-load.ts';
import { deviceProfile } from '../browser/user-agent-presets.ts';
import type {
  AreaRequest,
  DocumentReader,
  DocumentReadRequest,
  LoginSettings,
  PageAction,
  PageFetcher,
  UserAgentKind,
} from '../domain/page-fetcher.ts';
import { presentedLocale, type Reader } from '../domain/reader-locale.ts';
import { CrawlFailure } from '../http/crawl-failure.ts';
import { type FrameRef, type PreviewRender, renderPreview } from './preview-render.ts';
import { createPreviewSessions, PreviewError, type SessionLimits } from './preview-sessions.ts';

export interface PreviewServiceOptions {
  pool: BrowserPool;
  /** HTTP mode, to tell whether the served HTML already has an area's text. */
  httpFetcher: PageFetcher & DocumentReader;
  /** Upstream proxies of the configured pool, for sites that use one. */
  proxyPool?: readonly string[];
  limits?: Partial<ActionLimits>;
  sessions?: Partial<SessionLimits>;
  now?: () => number;
  /** host:port the gateway reaches this crawler at; carried in session ids (ADR 0011). */
  home?: string;
}

export interface OpenPreview {
  url: string;
  userAgent: { kind: UserAgentKind; value?: string };
  viewport?: { width: number; height: number };
  /** A Cookie header value; never logged. */
  cookies?: string;
  useProxy: boolean;
  /** The account's language and time zone, presented to the site as checks do. */
  reader?: Reader;
}

export interface PreviewProblem {
  code: string;
  detail: string;
}

export type StepOutcome =
  | { ok: true; render: PreviewRender }
  | { ok: false; problem: PreviewProblem; render?: PreviewRender };

interface SessionSettings {
  url: string;
  open: OpenPreview;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { perUser: 3, total: 24, idleMs: 10 * 60_000 };

/**
 * The wizard's live preview: pages opened in the browser pool for one user at a time, read
 * and acted on the same way checks do, so what the wizard shows is what checks will see.
 */
export function createPreviewService(options: PreviewServiceOptions) {
  const limits: ActionLimits = { ...DEFAULT_ACTION_LIMITS, ...options.limits };
  const sessions = createPreviewSessions<SessionSettings>(
    { ...DEFAULT_SESSION_LIMITS, ...options.sessions },
    options.now,
    options.home,
  );
  const { pool } = options;

  function upstreamProxy(useProxy: boolean): string | undefined {
    const proxies = options.proxyPool ?? [];
    if (!useProxy || proxies.length === 0) return undefined;
    return proxies[Math.floor(Math.random() * proxies.length)];
  }

  return {
    async open(
      userId: string,
      request: OpenPreview,
    ): Promise<{ sessionId: string; render: PreviewRender } | { problem: PreviewProblem }> {
      const url = checkedUrl(request.url);
      let problem: PreviewProblem | undefined;
      let render: PreviewRender | undefined;
      const session = await sessions.open(userId, async () => {
        const proxy = upstreamProxy(request.useProxy);
        const locale = presentedLocale(request.reader);
        const lease = await pool.open({
          device: deviceProfile(request.userAgent, request.viewport),
          blockImages: false,
          ...(locale ? { locale } : {}),
          ...(proxy ? { upstreamProxy: proxy } : {}),
        });
        try {
          if (request.cookies) await lease.context.addCookies(cookiesFromHeader(request.cookies, url));
          await loadPage(lease.page, url, limits, pool.guard);
          render = await renderPreview(lease.page);
          await throwIfPageStopped(lease.page, url);
        } catch (error) {
          problem = problemOf(error);
        }
        return { lease, settings: { url, open: request } };
      });
      if (problem || !render) {
        await sessions.close(userId, session.id);
        return { problem: problem ?? { code: 'unreachable', detail: 'the page could not be shown' } };
      }
      return { sessionId: session.id, render };
    },

    render(
      userId: string,
      sessionId: string,
      frame?: FrameRef,
    ): Promise<{ render: PreviewRender } | { problem: PreviewProblem }> {
      return sessions.use(userId, sessionId, async ({ lease, settings }) => {
        try {
          const render = await renderPreview(lease.page, frame);
          await throwIfPageStopped(lease.page, settings.url);
          return { render };
        } catch (error) {
          return { problem: problemOf(error) };
        }
      });
    },

    evaluateArea(userId: string, sessionId: string, area: AreaRequest) {
      return sessions.use(userId, sessionId, async ({ lease, settings }) => {
        const [reading] = await readAreas(lease.page, [area]);
        if (!reading?.found) {
          return { found: false, text: '', html: '', httpSuffices: false, name: '' };
        }
        const name = await suggestAreaName(lease.page, area);
        const served = await options.httpFetcher.fetch(
          {
            url: lease.page.url(),
            mode: 'http',
            userAgent: settings.open.userAgent,
            ...(settings.open.cookies ? { cookies: settings.open.cookies } : {}),
            ...(settings.open.reader ? { reader: settings.open.reader } : {}),
            actions: [],
            areas: [area],
            screenshot: 'none',
          },
          AbortSignal.timeout(limits.loadTimeoutMs),
        );
        const servedText = served.ok ? served.areas[0]?.text : undefined;
        const httpSuffices = servedText !== undefined && collapse(servedText) === collapse(reading.text);
        return { found: true, text: reading.text, html: reading.html, httpSuffices, name };
      });
    },

    testLogin(userId: string, sessionId: string, login: LoginSettings): Promise<StepOutcome> {
      return sessions.use(userId, sessionId, async ({ lease, settings }) => {
        // A login test starts signed out, as the first check will.
        await lease.context.clearCookies();
        return step(lease.page, () =>
          ensureSignedIn(lease.page, settings.url, login, limits, pool.guard, { kept: false, force: true }),
        );
      });
    },

    runActions(userId: string, sessionId: string, actions: readonly PageAction[]): Promise<StepOutcome> {
      return sessions.use(userId, sessionId, ({ lease, settings }) =>
        step(lease.page, async () => {
          await runActions(lease.page, actions, limits, pool.guard);
          await throwIfPageStopped(lease.page, settings.url);
        }),
      );
    },

    /**
     * What a URL serves, read over plain HTTP as checks of a document read it: no session is kept
     * (a document has nothing to click on), so each call reads the URL again.
     */
    readDocument(request: Omit<DocumentReadRequest, 'proxyUrl'> & { useProxy: boolean }) {
      const { useProxy, ...read } = request;
      const proxyUrl = upstreamProxy(useProxy);
      return options.httpFetcher.readDocument(
        { ...read, url: checkedUrl(read.url), ...(proxyUrl ? { proxyUrl } : {}) },
        AbortSignal.timeout(limits.loadTimeoutMs),
      );
    },

    close: (userId: string, sessionId: string) => sessions.close(userId, sessionId),

    /** Closes idle sessions now (a timer does it regularly). */
    sweep: () => sessions.sweep(),

    closeAll: () => sessions.closeAll(),
  };
}

export type PreviewService = ReturnType<typeof createPreviewService>;

async function step(page: Page, work: () => Promise<unknown>): Promise<StepOutcome> {
  try {
    await work();
  } catch (error) {
    const problem = problemOf(error);
    const render = await renderPreview(page).catch(() => undefined);
    return render ? { ok: false, problem, render } : { ok: false, problem };
  }
  return { ok: true, render: await renderPreview(page) };
}

function problemOf(error: unknown): PreviewProblem {
  if (error instanceof CrawlFailure) return { code: error.code, detail: error.detail };
  if (error instanceof FrameNotFoundError) return { code: 'element_not_found', detail: error.message };
  if (error instanceof PreviewError) throw error;
  // Playwright's messages may quote typed text; only the kind is passed on.
  return {
    code: 'unreachable',
    detail: `the browser failed (${error instanceof Error ? error.name : 'unknown'})`,
  };
}

function checkedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PreviewError('invalid', 'invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PreviewError('invalid', 'invalid_url');
  return url.href;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
