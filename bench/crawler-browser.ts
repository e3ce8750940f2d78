// Browser mode of the crawler against a naive browser-per-check loop: the same system Chromium
// binary, flags, guarded proxy and per-check work (load, settle, read the area in an isolated
// world) — the naive loop is the same fetcher on a pool made and closed for every check.
// Imported by crawler.bench.ts.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import {
  chromiumExecutablePath,
  createBrowserPageFetcher,
  createBrowserPool,
  type FetchRequest,
} from '@mimamori/crawler';

const POOL_CHECKS = Number(process.env.BENCH_BROWSER_CHECKS ?? 200);
const NAIVE_CHECKS = Number(process.env.BENCH_NAIVE_CHECKS ?? 30);
const IN_FLIGHT = Number(process.env.BENCH_BROWSER_IN_FLIGHT ?? 8);
/** Targets per account when an account's due checks are dispatched together. */
const TARGETS_PER_ACCOUNT = 10;
const CLOCK_TICKS = 100;

export interface BrowserFigures {
  rows: Record<string, string | number>[];
  browser_checks_per_s: number;
  naive_browser_checks_per_s: number;
  browser_ratio_vs_naive: number;
  peak_rss_mb_per_page: number;
}

interface Run {
  checks: number;
  failed: number;
  wallSeconds: number;
  cpuSeconds: number;
  peakMb: number;
}

export async function measureBrowser(pages: { url: string; selector: string }[]): Promise<BrowserFigures> {
  if (pages.length === 0) throw new Error('no pages to check');
  const binary = chromiumExecutablePath();
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`browser mode runs ${binary} (${version})`);
  const allow = [...new Set(pages.map((page) => new URL(page.url).host))];
  const requestFor = (index: number, accountId?: string): FetchRequest => {
    const page = pages[index % pages.length] as { url: string; selector: string };
    return {
      url: page.url,
      mode: 'browser',
      userAgent: { kind: 'chrome' },
      actions: [],
      areas: [{ areaId: 'watched', selector: page.selector, selectorType: 'css' }],
      screenshot: 'none',
      ...(accountId ? { accountId } : {}),
    };
  };

  const fresh = await measurePool(requestFor, allow, 1, () => undefined);
  // An account's due checks dispatched together, one after another on its warm context.
  const warm = await measurePool(
    requestFor,
    allow,
    TARGETS_PER_ACCOUNT,
    (index) => `account-${Math.floor(index / TARGETS_PER_ACCOUNT)}`,
  );
  const naive = await measureNaive(requestFor, allow);

  const perSecond = (run: Run) => run.checks / run.wallSeconds;
  const row = (mode: string, run: Run, inFlight: number) => ({
    mode,
    checks: run.checks,
    failed: run.failed,
    in_flight: inFlight,
    checks_per_s: round(perSecond(run)),
    cpu_ms_per_check: round((run.cpuSeconds / run.checks) * 1_000),
    peak_browser_mb: round(run.peakMb),
  });
  return {
    rows: [
      row('browser pool, fresh context per check', fresh, IN_FLIGHT),
      row(`browser pool, warm context per account (${TARGETS_PER_ACCOUNT} targets)`, warm, IN_FLIGHT),
      row('naive: a browser launched per check', naive, 1),
    ],
    browser_checks_per_s: round(perSecond(fresh)),
    browser_warm_checks_per_s: round(perSecond(warm)),
    naive_browser_checks_per_s: round(perSecond(naive)),
    browser_ratio_vs_naive: round(perSecond(fresh) / perSecond(naive), 2),
    browser_warm_ratio_vs_naive: round(perSecond(warm) / perSecond(naive), 2),
    peak_rss_mb_per_page: round(fresh.peakMb / IN_FLIGHT),
    // CPU of the crawler process and its Chromium together, and the browsers' memory at
    // IN_FLIGHT pages: a browser-mode pod's requests.
    browser_cpu_s_per_check: round(fresh.cpuSeconds / fresh.checks, 4),
    browser_warm_cpu_s_per_check: round(warm.cpuSeconds / warm.checks, 4),
    browser_in_flight: IN_FLIGHT,
    browser_peak_pss_mb: round(fresh.peakMb),
    browser_warm_peak_pss_mb: round(warm.peakMb),
    browser_binary: binary,
  } as BrowserFigures;
}

async function measurePool(
  requestFor: (index: number, accountId?: string) => FetchRequest,
  allow: string[],
  chunk: number,
  accountOf: (index: number) => string | undefined,
): Promise<Run> {
  const pool = createBrowserPool({ allow, pagesPerBrowser: IN_FLIGHT });
  const fetcher = createBrowserPageFetcher({ pool });
  try {
    // The pool is long-lived: its launch is not part of any check.
    await fetcher.fetch(requestFor(0), new AbortController().signal);
    const memory = sampleBrowserMemory();
    const cpuBefore = cpuSeconds();
    const started = performance.now();
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let first = next; first < POOL_CHECKS; first = next) {
          next += chunk;
          for (let index = first; index < Math.min(first + chunk, POOL_CHECKS); index++) {
            const result = await fetcher.fetch(
              requestFor(index, accountOf(index)),
              new AbortController().signal,
            );
            if (!result.ok) failed++;
          }
        }
      }),
    );
    const wallSeconds = (performance.now() - started) / 1_000;
    const run = {
      checks: POOL_CHECKS,
      failed,
      wallSeconds,
      cpuSeconds: cpuSeconds() - cpuBefore,
      peakMb: memory.stop(),
    };
    return run;
  } finally {
    await fetcher.close();
  }
}

/** The same fetcher on a pool made and closed for every check: a browser launched per check. */
async function measureNaive(requestFor: (index: number) => FetchRequest, allow: string[]): Promise<Run> {
  const memory = sampleBrowserMemory();
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  let failed = 0;
  for (let index = 0; index < NAIVE_CHECKS; index++) {
    const fetcher = createBrowserPageFetcher({ pool: createBrowserPool({ allow }) });
    try {
      const result = await fetcher.fetch(requestFor(index), new AbortController().signal);
      if (!result.ok) failed++;
    } finally {
      await fetcher.close();
    }
  }
  const wallSeconds = (performance.now() - started) / 1_000;
  return {
    checks: NAIVE_CHECKS,
    failed,
    wallSeconds,
    cpuSeconds: cpuSeconds() - cpuBefore,
    peakMb: memory.stop(),
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

/** Peak proportional set size (shared pages split fairly) of all browser processes, in MB. */
function sampleBrowserMemory(): { stop(): number } {
  let peak = 0;
  const sample = () => {
    let kb = 0;
    for (const pid of descendants()) {
      try {
        const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
        kb += Number(match?.[1] ?? 0);
      } catch {
        // Gone already.
      }
    }
    peak = Math.max(peak, kb / 1024);
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

function descendants(): number[] {
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
