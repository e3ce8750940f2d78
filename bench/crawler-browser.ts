// Browser mode of the crawler against two plain Playwright scripts on the same system Chromium,
// flags, pages and concurrency (the pool's 8 pages in flight): one browser with a fresh context
// per check (what anyone would write first), and a browser launched per check. The headline
// figures give each check a fresh context. The warm figures show an account's checks one after
// another on its warm context: the scheduler dispatches an account's due checks within a few
// seconds of each other (ADR 0018), so a crawler that keeps up runs them that way, while one
// with a backlog runs them side by side, each on a fresh context but the first. The plain
// scripts load the page, wait for its load event and read the area's text; the product also
// settles the page, guards every request through its proxy, reads in an isolated world and caps
// sizes. Then the cost of screenshots on a check where nothing changed. Imported by
// crawler.bench.ts.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import {
  CHROMIUM_ARGS,
  chromiumExecutablePath,
  createBrowserPageFetcher,
  createBrowserPool,
  type FetchRequest,
} from '@mimamori/crawler';
import { type Browser, chromium } from 'playwright-core';
import { corpusCheckRequest, startCorpusSite } from '../services/crawler/test/revalidation-corpus.ts';

const POOL_CHECKS = Number(process.env.BENCH_BROWSER_CHECKS ?? 320);
const LAUNCH_CHECKS = Number(process.env.BENCH_LAUNCH_CHECKS ?? 48);
const SCREENSHOT_CHECKS = Number(process.env.BENCH_SCREENSHOT_CHECKS ?? 100);
/** Unchanged pages checked again with what their last render kept (ADR 0031). */
const REVALIDATE_CHECKS = Number(process.env.BENCH_REVALIDATE_CHECKS ?? 400);
/** The share of checks the product renders whatever the answers (its policy's 1 in N). */
const FORCED_RENDER_SHARE = 1 / 30;
const IN_FLIGHT = Number(process.env.BENCH_BROWSER_IN_FLIGHT ?? 8);
/**
 * Turns the four ways take, so each meets the same mix of the machine's other load; by default
 * a slice holds twice IN_FLIGHT accounts, so the warm way keeps every page in flight busy.
 */
const SLICES = Number(process.env.BENCH_BROWSER_SLICES ?? 2);
/** Targets per account when an account's due checks are dispatched together. */
const TARGETS_PER_ACCOUNT = 10;
const CLOCK_TICKS = 100;
const PLAIN_TIMEOUT_MS = 30_000;

export interface BrowserFigures {
  rows: Record<string, string | number>[];
  [figure: string]: number | string | Record<string, string | number>[];
}

interface Run {
  checks: number;
  /** Checks Chromium rendered (revalidation runs only). */
  rendered?: number;
  failed: number;
  wallSeconds: number;
  cpuSeconds: number;
  peakMb: number;
}

type Target = { url: string; selector: string };

export async function measureBrowser(pages: Target[]): Promise<BrowserFigures> {
  if (pages.length === 0) throw new Error('no pages to check');
  const binary = chromiumExecutablePath();
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`browser mode runs ${binary} (${version})`);
  const allow = [...new Set(pages.map((page) => new URL(page.url).host))];
  const pageAt = (index: number) => pages[index % pages.length] as Target;
  const requestFor = (index: number, accountId?: string, screenshot: FetchRequest['screenshot'] = 'none') => {
    const page = pageAt(index);
    return {
      url: page.url,
      mode: 'browser',
      userAgent: { kind: 'chrome' },
      actions: [],
      areas: [{ areaId: 'watched', selector: page.selector, selectorType: 'css' }],
      screenshot,
      ...(accountId ? { accountId } : {}),
    } satisfies FetchRequest;
  };

  // The ways compared take turns in slices (other work on the machine comes and goes over a
  // run, and one way measured while it peaks would tell nothing about the others), each slice
  // on the next pages.
  const slices: Record<'fresh' | 'warm' | 'plainPool' | 'plainLaunch', Run[]> = {
    fresh: [],
    warm: [],
    plainPool: [],
    plainLaunch: [],
  };
  const perSlice = Math.ceil(POOL_CHECKS / SLICES);
  const launchesPerSlice = Math.ceil(LAUNCH_CHECKS / SLICES);
  for (let slice = 0; slice < SLICES; slice++) {
    const first = slice * perSlice;
    const sliceRequest = (index: number, accountId?: string) => requestFor(first + index, accountId);
    const slicePage = (index: number) => pageAt(first + index);
    slices.fresh.push(await measurePool(sliceRequest, allow, perSlice, 1, () => undefined));
    // An account's due checks dispatched together, one after another on its warm context.
    slices.warm.push(
      await measurePool(
        sliceRequest,
        allow,
        perSlice,
        TARGETS_PER_ACCOUNT,
        (index) => `account-${Math.floor(index / TARGETS_PER_ACCOUNT)}`,
      ),
    );
    slices.plainPool.push(await measurePlainContextPool(binary, slicePage, perSlice));
    slices.plainLaunch.push(await measurePlainLaunch(binary, slicePage, launchesPerSlice));
  }
  const fresh = together(slices.fresh);
  const warm = together(slices.warm);
  const plainPool = together(slices.plainPool);
  const plainLaunch = together(slices.plainLaunch);
  // The same pages again, unchanged since their last check, with and without a page screenshot,
  // side by side in one run; the screenshot checks carry the areas' digest of that last check, as
  // the scheduler sends it (ADR 0016).
  const digests = await lastDigests(requestFor, allow, Math.min(SCREENSHOT_CHECKS, pages.length));
  const withoutShots = await measurePool(requestFor, allow, SCREENSHOT_CHECKS, 1, () => undefined);
  const withShots = await measurePool(
    (index, accountId) => {
      const digest = digests.get(index % pages.length);
      return { ...requestFor(index, accountId, 'page'), ...(digest ? { previousAreasDigest: digest } : {}) };
    },
    allow,
    SCREENSHOT_CHECKS,
    1,
    () => undefined,
  );

  // Revalidating before rendering: each page rendered once with its requests recorded, then
  // checked again unchanged with what that render kept, no check drawn for a forced render (its
  // share is added after, at the policy's rate). The full render it is set against is the
  // fresh-context run without screenshots just above, in the same run.
  const revalidatedPages = Math.min(REVALIDATE_CHECKS, pages.length);
  const kept = await keptStates(requestFor, allow, revalidatedPages);
  const unchanged = await measurePool(
    (index) => {
      const state = kept.get(index % revalidatedPages);
      return {
        ...requestFor(index % revalidatedPages),
        revalidate: true,
        ...(state ? { revalidation: state } : {}),
      };
    },
    allow,
    REVALIDATE_CHECKS,
    1,
    () => undefined,
    { draw: () => 0.99 },
  );
  const corpus = await corpusMisses();
  const floor = await blankFloorMb(allow);

  const perSecond = (run: Run) => run.checks / run.wallSeconds;
  const cpuPerCheck = (run: Run) => run.cpuSeconds / run.checks;
  const row = (mode: string, run: Run) => ({
    mode,
    checks: run.checks,
    failed: run.failed,
    in_flight: IN_FLIGHT,
    checks_per_s: round(perSecond(run)),
    cpu_ms_per_check: round(cpuPerCheck(run) * 1_000),
    peak_browser_pss_mb: round(run.peakMb),
  });
  return {
    rows: [
      row('browser pool, fresh context per check', fresh),
      row(`browser pool, warm context per account (${TARGETS_PER_ACCOUNT} targets)`, warm),
      row('plain Playwright: one browser, fresh context per check', plainPool),
      row('plain Playwright: a browser launched per check', plainLaunch),
      row('browser pool, fresh context, no screenshot (unchanged page)', withoutShots),
      row('browser pool, fresh context, page screenshot (unchanged page)', withShots),
      row(`revalidated before rendering (unchanged page, ${kept.size} kept states)`, unchanged),
    ],
    browser_checks_per_s: round(perSecond(fresh)),
    browser_warm_checks_per_s: round(perSecond(warm)),
    plain_context_pool_checks_per_s: round(perSecond(plainPool)),
    plain_launch_checks_per_s: round(perSecond(plainLaunch)),
    browser_ratio_vs_plain_context_pool: round(perSecond(fresh) / perSecond(plainPool), 2),
    browser_warm_ratio_vs_plain_context_pool: round(perSecond(warm) / perSecond(plainPool), 2),
    browser_ratio_vs_plain_launch: round(perSecond(fresh) / perSecond(plainLaunch), 2),
    browser_warm_ratio_vs_plain_launch: round(perSecond(warm) / perSecond(plainLaunch), 2),
    // CPU of this process and every browser process under it, per check.
    browser_cpu_ratio_vs_plain_context_pool: round(cpuPerCheck(plainPool) / cpuPerCheck(fresh), 2),
    browser_warm_cpu_ratio_vs_plain_context_pool: round(cpuPerCheck(plainPool) / cpuPerCheck(warm), 2),
    browser_cpu_s_per_check: round(cpuPerCheck(fresh), 4),
    browser_warm_cpu_s_per_check: round(cpuPerCheck(warm), 4),
    // Peak PSS of the whole browser process tree (shared pages split fairly) per page in flight.
    browser_pss_mb_per_page: round(fresh.peakMb / IN_FLIGHT),
    browser_warm_pss_mb_per_page: round(warm.peakMb / IN_FLIGHT),
    plain_context_pool_pss_mb_per_page: round(plainPool.peakMb / IN_FLIGHT),
    browser_peak_pss_mb: round(fresh.peakMb),
    browser_warm_peak_pss_mb: round(warm.peakMb),
    browser_in_flight: IN_FLIGHT,
    // CPU per check with screenshots on over CPU per check without, nothing having changed since
    // the last check (the product takes no screenshot then).
    screenshot_cost_ratio_unchanged: round(cpuPerCheck(withShots) / cpuPerCheck(withoutShots), 2),
    screenshot_wall_ratio_unchanged: round(perSecond(withoutShots) / perSecond(withShots), 2),
    // An unchanged check answered by asking the page's requests again, over a full render.
    browser_unchanged_cpu_ratio_vs_full: round(cpuPerCheck(unchanged) / cpuPerCheck(withoutShots), 3),
    browser_unchanged_cpu_ms_per_check: round(cpuPerCheck(unchanged) * 1_000, 2),
    browser_unchanged_checks_rendered: unchanged.rendered ?? 0,
    // With the policy's forced renders (1 in 30 of the unchanged checks render anyway).
    browser_unchanged_cpu_ratio_vs_full_with_forced_renders: round(
      (1 - FORCED_RENDER_SHARE) * (cpuPerCheck(unchanged) / cpuPerCheck(withoutShots)) + FORCED_RENDER_SHARE,
      3,
    ),
    browser_revalidate_missed_changes: corpus.missed.length,
    browser_revalidate_missed_pages: corpus.missed.join(' '),
    browser_revalidate_corpus_pages: corpus.pages,
    browser_revalidate_corpus_shortcuts: corpus.shortcuts,
    // Memory: the product's fresh contexts against the plain context pool's, per page in flight,
    // and the floor: a blank page in each of IN_FLIGHT fresh contexts, with the shared processes.
    browser_pss_ratio_vs_plain_context_pool: round(fresh.peakMb / plainPool.peakMb, 2),
    browser_pss_floor_mb_per_page: round(floor / IN_FLIGHT),
    browser_binary: binary,
  };
}

async function measurePool(
  requestFor: (index: number, accountId?: string) => FetchRequest,
  allow: string[],
  checks: number,
  chunk: number,
  accountOf: (index: number) => string | undefined,
  options: { draw?: () => number } = {},
): Promise<Run> {
  const pool = createBrowserPool({ allow, pagesPerBrowser: IN_FLIGHT });
  const fetcher = createBrowserPageFetcher({ pool, allow, ...(options.draw ? { draw: options.draw } : {}) });
  let rendered = 0;
  try {
    // The pool is long-lived: its launch is not part of any check.
    await fetcher.fetch({ ...requestFor(0), revalidate: false }, new AbortController().signal);
    const run = await timed(checks, chunk, async (index) => {
      const result = await fetcher.fetch(requestFor(index, accountOf(index)), new AbortController().signal);
      if (result.ok && result.rendered !== false) rendered++;
      return result.ok;
    });
    return { ...run, rendered };
  } finally {
    await fetcher.close();
  }
}

/** The areas' digest each page's check with a screenshot leaves, by page index. */
async function lastDigests(
  requestFor: (index: number, accountId?: string, screenshot?: FetchRequest['screenshot']) => FetchRequest,
  allow: string[],
  count: number,
): Promise<Map<number, string>> {
  const fetcher = createBrowserPageFetcher({
    pool: createBrowserPool({ allow, pagesPerBrowser: IN_FLIGHT }),
  });
  const digests = new Map<number, string>();
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let index = next++; index < count; index = next++) {
          const result = await fetcher.fetch(
            requestFor(index, undefined, 'page'),
            new AbortController().signal,
          );
          if (result.ok && result.areasDigest) digests.set(index, result.areasDigest);
        }
      }),
    );
    return digests;
  } finally {
    await fetcher.close();
  }
}

/** What each page's full render keeps for revalidating the next check, by page index. */
async function keptStates(
  requestFor: (index: number) => FetchRequest,
  allow: string[],
  count: number,
): Promise<Map<number, string>> {
  const fetcher = createBrowserPageFetcher({
    pool: createBrowserPool({ allow, pagesPerBrowser: IN_FLIGHT }),
    allow,
  });
  const states = new Map<number, string>();
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let index = next++; index < count; index = next++) {
          const result = await fetcher.fetch(
            { ...requestFor(index), revalidate: true },
            new AbortController().signal,
          );
          if (result.ok && result.revalidation) states.set(index, result.revalidation);
        }
      }),
    );
    return states;
  } finally {
    await fetcher.close();
  }
}

/**
 * The revalidation corpus (services/crawler/test/revalidation-corpus.ts): each page checked,
 * checked again, changed and checked with what was kept; a change the last check does not show
 * is missed.
 */
async function corpusMisses(): Promise<{ pages: number; missed: string[]; shortcuts: number }> {
  const site = await startCorpusSite();
  const allow = [site.authority];
  const fetcher = createBrowserPageFetcher({
    pool: createBrowserPool({ allow, pagesPerBrowser: IN_FLIGHT }),
    allow,
    draw: () => 0.99,
  });
  const missed: string[] = [];
  let shortcuts = 0;
  try {
    const check = async (page: (typeof site.pages)[number], revalidation?: string) => {
      const result = await fetcher.fetch(
        corpusCheckRequest(site.origin, page, revalidation),
        new AbortController().signal,
      );
      if (!result.ok) return { shown: '', rendered: true, revalidation: undefined };
      const area = result.areas[0];
      return {
        shown: (page.inHtml ? area?.html : area?.text) ?? '',
        rendered: result.rendered !== false,
        revalidation: result.revalidation,
      };
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(IN_FLIGHT, 6) }, async () => {
        for (let at = next++; at < site.pages.length; at = next++) {
          const page = site.pages[at] as (typeof site.pages)[number];
          const first = await check(page);
          const second = await check(page, first.revalidation);
          if (!second.rendered) shortcuts++;
          site.change(page.name);
          const third = await check(page, second.revalidation ?? first.revalidation);
          if (!third.shown.includes(`V${site.version(page.name)}`)) missed.push(page.name);
        }
      }),
    );
    return { pages: site.pages.length, missed, shortcuts };
  } finally {
    await fetcher.close();
    await site.close();
  }
}

/** PSS of the browser tree with a blank page in each of IN_FLIGHT fresh contexts, in MB. */
async function blankFloorMb(allow: string[]): Promise<number> {
  const pool = createBrowserPool({ allow, pagesPerBrowser: IN_FLIGHT });
  try {
    const device = {
      viewport: { width: 1280, height: 800 },
      isMobile: false,
      hasTouch: false,
      deviceScaleFactor: 1,
    };
    const opened = await Promise.all(
      Array.from({ length: IN_FLIGHT }, () => pool.open({ device, blockImages: true })),
    );
    // Give the renderers a moment to settle into their idle size.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const mb = browserTreePssMb();
    await Promise.all(opened.map((lease) => lease.close()));
    return mb;
  } finally {
    await pool.close();
  }
}

/** Plain Playwright: one long-lived browser, a fresh context and page per check. */
async function measurePlainContextPool(
  binary: string,
  pageAt: (index: number) => Target,
  checks: number,
): Promise<Run> {
  const browser = await chromium.launch({ executablePath: binary, args: CHROMIUM_ARGS });
  try {
    await plainCheck(browser, pageAt(0));
    return await timed(checks, 1, (index) => plainCheck(browser, pageAt(index)));
  } finally {
    await browser.close();
  }
}

/** Plain Playwright: a browser launched for every check, IN_FLIGHT of them at once. */
async function measurePlainLaunch(
  binary: string,
  pageAt: (index: number) => Target,
  checks: number,
): Promise<Run> {
  return timed(checks, 1, async (index) => {
    const browser = await chromium.launch({ executablePath: binary, args: CHROMIUM_ARGS });
    try {
      return await plainCheck(browser, pageAt(index));
    } finally {
      await browser.close();
    }
  });
}

async function plainCheck(browser: Browser, target: Target): Promise<boolean> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(target.url, { waitUntil: 'load', timeout: PLAIN_TIMEOUT_MS });
    // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees, as the product reads it
    const text = await page.locator(target.selector).first().innerText({ timeout: PLAIN_TIMEOUT_MS });
    return text.length > 0;
  } catch {
    return false;
  } finally {
    await context.close();
  }
}

/** Runs `checks` checks IN_FLIGHT at a time (in chunks of consecutive indexes), timing the whole. */
async function timed(
  checks: number,
  chunk: number,
  check: (index: number) => Promise<boolean>,
): Promise<Run> {
  const memory = sampleBrowserMemory();
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let first = next; first < checks; first = next) {
        next += chunk;
        for (let index = first; index < Math.min(first + chunk, checks); index++) {
          if (!(await check(index))) failed++;
        }
      }
    }),
  );
  return {
    checks,
    failed,
    wallSeconds: (performance.now() - started) / 1_000,
    cpuSeconds: cpuSeconds() - cpuBefore,
    peakMb: memory.stop(),
  };
}

/** Slices of one way taken together: their checks, time and CPU summed, their memory's peak. */
function together(runs: Run[]): Run {
  return {
    checks: runs.reduce((sum, run) => sum + run.checks, 0),
    failed: runs.reduce((sum, run) => sum + run.failed, 0),
    wallSeconds: runs.reduce((sum, run) => sum + run.wallSeconds, 0),
    cpuSeconds: runs.reduce((sum, run) => sum + run.cpuSeconds, 0),
    peakMb: Math.max(...runs.map((run) => run.peakMb)),
  };
}

/** CPU of this process, its reaped children and every live browser process under it. */
function cpuSeconds(): number {
  const ticks = (pid: number | 'self') => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14–17 of stat, 12–15 after the command.
    return [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at]), 0);
  };
  let total = ticks('self');
  for (const pid of descendants()) {
    try {
      total += ticks(pid);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return total / CLOCK_TICKS;
}

/** Proportional set size (shared pages split fairly) of the browser processes under this one, in MB. */
export function browserTreePssMb(): number {
  let kb = 0;
  for (const pid of descendants()) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kb += Number(match?.[1] ?? 0);
    } catch {
      // Gone already.
    }
  }
  return kb / 1024;
}

/** Peak PSS of all browser processes, in MB. */
function sampleBrowserMemory(): { stop(): number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, browserTreePssMb());
  };
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/**
 * Browser processes under this one: Chromium and its helpers, not the bench's own page server
 * (also a child), whose memory and CPU are the outside world's.
 */
function descendants(): number[] {
  return processTree().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom');
    } catch {
      return false;
    }
  });
}

function processTree(): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone already.
    }
  }
  const found: number[] = [];
  const queue = [process.pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [pid, ppid] of parents) {
      if (ppid === parent) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
