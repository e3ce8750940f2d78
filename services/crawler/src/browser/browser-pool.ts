import {
  type AllowedPages,
  createEgressGuard,
  type EgressGuard,
  type GuardedProxy,
  startGuardedProxy,
} from '@mimamori/egress';
import type { Logger } from '@mimamori/runtime';
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from 'playwright-core';
import type { PresentedLocale } from '../domain/reader-locale.ts';
import { CHROMIUM_ARGS, chromiumExecutablePath } from './chromium-binary.ts';
import type { DeviceProfile } from './user-agent-presets.ts';

export interface BrowserPoolOptions {
  /**
   * `host:port` destinations the egress guard lets through unchecked: tests' own loopback
   * fixture servers only; empty in production.
   */
  allow?: readonly string[];
  /**
   * Pages (origin and paths) the guard lets through: the single-process product's own demo
   * shop. Browser only: the proxy sees each request's whole URL, so it can hold them to the
   * paths; HTTP mode never needs them (the shop is drawn by script).
   */
  allowPages?: () => readonly AllowedPages[];
  /** Long-lived browser processes. */
  browsers?: number;
  /** Pages in flight per browser; more wait for a slot. */
  pagesPerBrowser?: number;
  /** How long an account's warm context is kept for its next check. */
  warmIdleMs?: number;
  /**
   * Warm contexts kept idle between checks at most (the oldest goes first): each holds a
   * renderer's memory (about 25 MB PSS), and only an account whose checks come close together
   * finds its context again.
   */
  idleWarm?: number;
  executablePath?: string;
  logger?: Logger;
}

export interface ContextSpec {
  device: DeviceProfile;
  /** An upstream proxy from the configured pool; the guard still checks every target. */
  upstreamProxy?: string;
  /** Playwright storage state (JSON) kept from an earlier check. */
  storageState?: string;
  /** Images are only fetched when a screenshot will show them. */
  blockImages: boolean;
  javaScriptEnabled?: boolean;
  /** The reader's locale and zone: navigator.language, Accept-Language and the page's clock. */
  locale?: PresentedLocale;
  /**
   * Consecutive checks of the same account with the same settings may reuse one warm context
   * (never across accounts): a fresh context and page cost more than the check itself.
   */
  warmKey?: string;
  /** A script run before the page's own in every document (a verification render's, ADR 0031). */
  initScript?: string;
}

/** The browser running a check went away (crash, kill); the check may be run again. */
export class BrowserCrashedError extends Error {
  override readonly name = 'BrowserCrashedError';
}

export interface LeasedPage {
  page: Page;
  context: BrowserContext;
  /** Whether the context came warm from an earlier check of the same account. */
  warm: boolean;
}

export interface BrowserPool {
  readonly executablePath: string;
  /** The guard the pool's proxies apply, for telling a refused address from an unreachable one. */
  readonly guard: EgressGuard;
  /** Runs `work` on a page in a context made for `spec`, then closes it (or keeps it warm). */
  run<T>(spec: ContextSpec, work: (lease: LeasedPage) => Promise<T>): Promise<T>;
  /** A context the caller keeps and closes (wizard preview sessions); not counted in the check slots. */
  open(spec: ContextSpec): Promise<LeasedPage & { close(): Promise<void> }>;
  /** Browsers running now and pages in use on them (checks and kept contexts), for the metrics. */
  size(): { browsers: number; pages: number };
  close(): Promise<void>;
}

interface Member {
  browser: Browser;
  active: number;
  alive: boolean;
}

interface WarmEntry {
  key: string;
  member: Member;
  context: BrowserContext;
  page: Page;
  /** The page's garbage collection after its check; the next check waits for it. */
  reset: Promise<boolean>;
  timer: NodeJS.Timeout;
}

const BLOCKED_ALWAYS = new Set(['font', 'media']);

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  // Resolved on first launch, so a crawler that never runs a browser needs no Chromium.
  let executablePath = options.executablePath;
  const browserCount = options.browsers ?? 1;
  const pagesPerBrowser = options.pagesPerBrowser ?? 8;
  const warmIdleMs = options.warmIdleMs ?? 10_000;
  const idleWarm = options.idleWarm ?? Math.max(1, Math.ceil((browserCount * pagesPerBrowser) / 4));
  const members: (Member | Promise<Member> | undefined)[] = new Array(browserCount).fill(undefined);
  const proxies = new Map<string, Promise<GuardedProxy>>();
  const warm = new Map<string, WarmEntry>();
  const collectors = new WeakMap<Page, CDPSession>();
  const waiters: (() => void)[] = [];
  let inUse = 0;
  let closed = false;

  function proxyFor(upstreamProxy: string | undefined): Promise<GuardedProxy> {
    const key = upstreamProxy ?? '';
    let proxy = proxies.get(key);
    if (!proxy) {
      // Every browser request, sub-resources and redirects included, leaves through this proxy.
      proxy = startGuardedProxy({
        ...(options.allow ? { allow: options.allow } : {}),
        ...(options.allowPages ? { allowPages: options.allowPages } : {}),
        ...(upstreamProxy ? { upstreamProxy } : {}),
      });
      proxies.set(key, proxy);
      proxy.catch(() => proxies.delete(key));
    }
    return proxy;
  }

  async function launch(index: number): Promise<Member> {
    const proxy = await proxyFor(undefined);
    // Playwright adds <-loopback> to the bypass list, so loopback also goes through the guard.
    executablePath ??= chromiumExecutablePath();
    const browser = await chromium.launch({
      executablePath,
      args: CHROMIUM_ARGS,
      proxy: { server: proxy.url },
    });
    const member: Member = { browser, active: 0, alive: true };
    browser.on('disconnected', () => {
      member.alive = false;
      if (members[index] === member) members[index] = undefined;
      dropWarm((entry) => entry.member === member);
      if (!closed)
        options.logger?.warn({ browser: index }, 'browser went away; the next check launches another');
    });
    return member;
  }

  /** The live browser at `index`, launching a replacement when the last one died. */
  async function memberAt(index: number): Promise<Member> {
    const current = members[index];
    if (current && !(current instanceof Promise) && current.alive) return current;
    if (current instanceof Promise) return current;
    const launching = launch(index);
    members[index] = launching;
    try {
      const member = await launching;
      members[index] = member;
      return member;
    } catch (error) {
      members[index] = undefined;
      throw error;
    }
  }

  async function leastBusy(): Promise<Member> {
    let best = 0;
    let bestActive = Number.POSITIVE_INFINITY;
    for (let index = 0; index < browserCount; index++) {
      const member = members[index];
      const active = member && !(member instanceof Promise) ? member.active : 0;
      if (active < bestActive) {
        best = index;
        bestActive = active;
      }
    }
    return memberAt(best);
  }

  async function acquireSlot(): Promise<void> {
    if (closed) throw new Error('browser pool closed');
    if (inUse < browserCount * pagesPerBrowser) {
      inUse++;
      return;
    }
    await new Promise<void>((resolve) => waiters.push(resolve));
    if (closed) throw new Error('browser pool closed');
  }

  function releaseSlot() {
    const next = waiters.shift();
    if (next) next();
    else inUse--;
  }

  function dropWarm(matches: (entry: WarmEntry) => boolean) {
    for (const [key, entry] of warm) {
      if (!matches(entry)) continue;
      warm.delete(key);
      clearTimeout(entry.timer);
      entry.context.close().catch(() => undefined);
    }
  }

  async function takeWarm(key: string): Promise<WarmEntry | undefined> {
    const entry = warm.get(key);
    if (!entry) return undefined;
    warm.delete(key);
    clearTimeout(entry.timer);
    if ((await entry.reset) && entry.member.alive && !entry.page.isClosed()) return entry;
    entry.context.close().catch(() => undefined);
    return undefined;
  }

  /**
   * Keeps one idle context per key, and at most `idleWarm` of them (the oldest goes first).
   * Its page gives back the memory its checks left at once; the next check (of the same
   * account only) starts from it, with the account's cookies and storage.
   */
  function keepWarm(key: string, member: Member, context: BrowserContext, page: Page) {
    if (warm.has(key) || idleWarm === 0) {
      context.close().catch(() => undefined);
      return;
    }
    for (const oldest of warm.values()) {
      if (warm.size < idleWarm) break;
      dropWarm((entry) => entry === oldest);
    }
    const entry: WarmEntry = {
      key,
      member,
      context,
      page,
      reset: resetPage(page),
      timer: setTimeout(() => dropWarm((candidate) => candidate === entry), warmIdleMs),
    };
    entry.timer.unref();
    warm.set(key, entry);
  }

  /**
   * A full garbage collection in the page's renderer: one that has run ten checks otherwise
   * holds their dead documents' heap until V8 gets round to it (the bench's warm run peaked at
   * 750 MB PSS for 8 pages in flight without, 460 MB with), for about 7 ms of CPU. The page
   * stays on its document: going to about:blank first cost twice that and saved nothing more.
   * False when the page can no longer be used.
   */
  async function resetPage(page: Page): Promise<boolean> {
    try {
      let session = collectors.get(page);
      if (!session) {
        session = await page.context().newCDPSession(page);
        collectors.set(page, session);
      }
      await session.send('HeapProfiler.collectGarbage');
      return true;
    } catch {
      return false;
    }
  }

  async function newContext(
    member: Member,
    spec: ContextSpec,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const proxy = spec.upstreamProxy ? await proxyFor(spec.upstreamProxy) : undefined;
    const context = await member.browser.newContext({
      viewport: spec.device.viewport,
      screen: spec.device.viewport,
      isMobile: spec.device.isMobile,
      hasTouch: spec.device.hasTouch,
      deviceScaleFactor: spec.device.deviceScaleFactor,
      ...(spec.device.userAgent ? { userAgent: spec.device.userAgent } : {}),
      ...(proxy ? { proxy: { server: proxy.url } } : {}),
      ...(spec.storageState ? { storageState: JSON.parse(spec.storageState) } : {}),
      javaScriptEnabled: spec.javaScriptEnabled ?? true,
      serviceWorkers: 'block',
      acceptDownloads: false,
      // The locale also sets Accept-Language (to the locale's own tag, as Playwright does).
      ...(spec.locale ? { locale: spec.locale.locale } : {}),
      ...(spec.locale?.timeZone ? { timezoneId: spec.locale.timeZone } : {}),
    });
    await context.route('**/*', (route) => {
      const type = route.request().resourceType();
      if (BLOCKED_ALWAYS.has(type) || (spec.blockImages && type === 'image'))
        return route.abort('blockedbyclient');
      return route.fallback();
    });
    if (spec.initScript) await context.addInitScript({ content: spec.initScript });
    const page = await context.newPage();
    return { context, page };
  }

  async function lease(spec: ContextSpec): Promise<{ member: Member; leased: LeasedPage }> {
    const reused = spec.warmKey ? await takeWarm(spec.warmKey) : undefined;
    if (reused) {
      reused.member.active++;
      return { member: reused.member, leased: { page: reused.page, context: reused.context, warm: true } };
    }
    const member = await leastBusy();
    member.active++;
    try {
      const { context, page } = await newContext(member, spec);
      return { member, leased: { page, context, warm: false } };
    } catch (error) {
      member.active--;
      throw member.alive ? error : new BrowserCrashedError('the browser went away while opening a page');
    }
  }

  return {
    get executablePath() {
      executablePath ??= chromiumExecutablePath();
      return executablePath;
    },
    guard: createEgressGuard({
      ...(options.allow ? { allow: options.allow } : {}),
      ...(options.allowPages ? { allowPages: options.allowPages } : {}),
    }),

    async run(spec, work) {
      await acquireSlot();
      try {
        const { member, leased } = await lease(spec);
        let keep = false;
        try {
          const result = await work(leased);
          keep = Boolean(spec.warmKey) && member.alive && !closed;
          return result;
        } catch (error) {
          if (!member.alive) throw new BrowserCrashedError('the browser went away during the check');
          throw error;
        } finally {
          member.active--;
          if (keep && spec.warmKey) keepWarm(spec.warmKey, member, leased.context, leased.page);
          else await leased.context.close().catch(() => undefined);
        }
      } finally {
        releaseSlot();
      }
    },

    async open(spec) {
      // Kept contexts (the preview's) are capped by their owner, not by the check slots, so an
      // open wizard never holds checks back.
      if (closed) throw new Error('browser pool closed');
      const { warmKey: _unused, ...fresh } = spec;
      const { member, leased } = await lease(fresh);
      let released = false;
      return {
        ...leased,
        async close() {
          if (released) return;
          released = true;
          member.active--;
          await leased.context.close().catch(() => undefined);
        },
      };
    },

    size() {
      const live = members.filter(
        (member): member is Member => member !== undefined && !(member instanceof Promise) && member.alive,
      );
      return { browsers: live.length, pages: live.reduce((sum, member) => sum + member.active, 0) };
    },

    async close() {
      if (closed) return;
      closed = true;
      dropWarm(() => true);
      for (const waiter of waiters.splice(0)) waiter();
      const launched = await Promise.allSettled(members.map((member) => member));
      await Promise.allSettled(
        launched.map((outcome) =>
          outcome.status === 'fulfilled' && outcome.value ? outcome.value.browser.close() : undefined,
        ),
      );
      const opened = await Promise.allSettled(proxies.values());
      await Promise.allSettled(
        opened.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.close() : undefined)),
      );
    },
  };
}
