// Cost per check of the crawler's HTTP mode against Debian's urlwatch on the same ≥500
// generated pages (Japanese and English, 20–60 KB) with an equivalent CSS filter, served from
// a separate loopback process so only the checking side's CPU is counted; the two sides take
// turns. When the browser half's bench/crawler-browser.ts is present, its browser-mode figures
// join the same report.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpPageFetcher } from '@mimamori/crawler';
import { generateCrawlerPages } from './fixtures/crawler-pages.ts';
import { startPageServer } from './fixtures/start-page-server.ts';
import { report } from './report.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
/**
 * The HTTP rounds and urlwatch's runs take turns in this many slices (each slice: ROUNDS / SLICES
 * rounds of ours, one steady-state run of urlwatch over every page), so a spell of other load on
 * the machine falls on both sides rather than deciding the ratio.
 */
const SLICES = Number(process.env.BENCH_HTTP_SLICES ?? 2);
const IN_FLIGHT = 16;
// BENCH_CRAWLER_HALVES=http measures the HTTP half and urlwatch alone (the ratio), =browser the
// browser half alone, while developing one of them.
const HALVES = process.env.BENCH_CRAWLER_HALVES ?? 'all';

const pages = generateCrawlerPages(PAGES);
const server = await startPageServer(PAGES);
const origin = `http://127.0.0.1:${server.port}`;
const benchPages = pages.map((page) => ({
  url: `${origin}${page.path}`,
  selector: page.selector,
  lang: page.lang,
}));

try {
  const browserOnly = HALVES === 'browser';
  const { http, urlwatch } = browserOnly ? {} : await measureHttpAndUrlwatch();
  const browser = HALVES === 'http' ? undefined : await measureBrowserMode();
  const rows: Record<string, string | number>[] = [];
  let httpFigures: Record<string, number> = {};
  if (http && urlwatch) {
    const httpPerCpu = http.checks / http.cpuSeconds;
    const urlwatchPerCpu = urlwatch.checks / urlwatch.cpuSeconds;
    rows.push(
      {
        mode: 'http (undici + htmlparser2)',
        checks: http.checks,
        checks_per_s: round(http.checks / http.wallSeconds),
        cpu_ms_per_check: round((http.cpuSeconds / http.checks) * 1_000, 3),
        checks_per_cpu_s: round(httpPerCpu),
      },
      {
        mode: `urlwatch ${urlwatch.version} (css + html2text)`,
        checks: urlwatch.checks,
        checks_per_s: round(urlwatch.checks / urlwatch.wallSeconds),
        cpu_ms_per_check: round((urlwatch.cpuSeconds / urlwatch.checks) * 1_000, 3),
        checks_per_cpu_s: round(urlwatchPerCpu),
      },
    );
    httpFigures = {
      http_checks_per_s: round(http.checks / http.wallSeconds),
      http_cpu_s_per_check: round(http.cpuSeconds / http.checks, 6),
      http_checks_per_cpu_s: round(httpPerCpu),
      http_peak_rss_mb: round(http.peakRssMb),
      urlwatch_checks_per_cpu_s: round(urlwatchPerCpu),
      http_ratio_vs_urlwatch: round(httpPerCpu / urlwatchPerCpu, 2),
    };
  }
  const { rows: browserRows, ...browserFigures } = browser ?? { rows: [] };
  rows.push(...browserRows);
  report(
    `crawler: ${PAGES} pages (${pages.filter((page) => page.lang === 'ja').length} Japanese), ${IN_FLIGHT} in flight`,
    rows,
    { pages: PAGES, ...httpFigures, ...browserFigures },
  );
} finally {
  server.child.kill('SIGTERM');
}

interface Side {
  checks: number;
  wallSeconds: number;
  cpuSeconds: number;
}

/** Our HTTP mode and urlwatch on the same pages, taking turns slice by slice. */
async function measureHttpAndUrlwatch() {
  const ours = await startHttpMode();
  const theirs = await startUrlwatch();
  const http: Side & { peakRssMb: number } = { checks: 0, wallSeconds: 0, cpuSeconds: 0, peakRssMb: 0 };
  const urlwatch: Side & { version: string } = {
    checks: 0,
    wallSeconds: 0,
    cpuSeconds: 0,
    version: theirs.version,
  };
  const add = (total: Side, part: Side) => {
    total.checks += part.checks;
    total.wallSeconds += part.wallSeconds;
    total.cpuSeconds += part.cpuSeconds;
  };
  try {
    for (let slice = 0; slice < SLICES; slice++) {
      const part = await ours.rounds(Math.ceil(ROUNDS / SLICES));
      add(http, part);
      http.peakRssMb = Math.max(http.peakRssMb, part.peakRssMb);
      add(urlwatch, theirs.run());
    }
    return { http, urlwatch };
  } finally {
    await ours.close();
    await theirs.close();
  }
}

async function startHttpMode() {
  const fetcher = createHttpPageFetcher({ allow: [`127.0.0.1:${server.port}`] });
  const signal = new AbortController().signal;
  const checkAll = async () => {
    let next = 0;
    const worker = async () => {
      while (next < benchPages.length) {
        const page = benchPages[next++];
        if (!page) return;
        const result = await fetcher.fetch(
          {
            url: page.url,
            mode: 'http',
            userAgent: { kind: 'chrome' },
            actions: [],
            areas: [{ areaId: 'watched', selector: page.selector, selectorType: 'css' }],
            screenshot: 'none',
          },
          signal,
        );
        if (!result.ok || !result.areas[0]?.text)
          throw new Error(`check of ${page.url} failed: ${JSON.stringify(result)}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  };
  await checkAll(); // warm-up: JIT and keep-alive connections
  return {
    async rounds(count: number) {
      // The crawler process's resident memory with IN_FLIGHT checks at once: a pod's memory request.
      let peakRss = process.memoryUsage.rss();
      const rssSampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage.rss());
      }, 50);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      for (let round = 0; round < count; round += 1) await checkAll();
      const wallSeconds = (performance.now() - started) / 1_000;
      const cpu = process.cpuUsage(cpuBefore);
      clearInterval(rssSampler);
      return {
        checks: count * benchPages.length,
        wallSeconds,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        peakRssMb: peakRss / 2 ** 20,
      };
    },
    close: () => fetcher.close(),
  };
}

async function startUrlwatch() {
  ensureUrlwatch();
  const version =
    execFileSync('urlwatch', ['--version'], { encoding: 'utf8' }).trim().split(/\s+/).pop() ?? '?';
  const folder = await mkdtemp(join(tmpdir(), 'urlwatch-bench-'));
  const jobs = benchPages
    .map(
      (page, index) =>
        `name: page-${index}\nurl: ${page.url}\nfilter:\n  - css: '${page.selector}'\n  - html2text\n`,
    )
    .join('---\n');
  await writeFile(join(folder, 'urls.yaml'), jobs);
  const args = [
    '--urls',
    'urls.yaml',
    '--config',
    'urlwatch.yaml',
    '--hooks',
    'hooks.py',
    '--cache',
    'cache.db',
  ].map((arg) => (arg.startsWith('--') ? arg : join(folder, arg)));
  // The first run fills urlwatch's cache; the runs after it are the steady state that is measured.
  spawnSync('urlwatch', args, { stdio: 'ignore' });
  return {
    version,
    run(): Side {
      const timed = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S', 'urlwatch', ...args], {
        encoding: 'utf8',
      });
      const times = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(timed.stderr);
      if (timed.status !== 0 || !times) throw new Error(`urlwatch failed: ${timed.stderr.slice(-2_000)}`);
      if (/error|traceback/i.test(timed.stdout))
        throw new Error(`urlwatch reported errors: ${timed.stdout.slice(0, 2_000)}`);
      return {
        checks: benchPages.length,
        wallSeconds: Number(times[1]),
        cpuSeconds: Number(times[2]) + Number(times[3]),
      };
    },
    close: () => rm(folder, { recursive: true, force: true }),
  };
}

function ensureUrlwatch() {
  if (spawnSync('urlwatch', ['--version']).status === 0) return;
  console.error('installing urlwatch (Debian package) for the baseline…');
  execFileSync('apt-get', ['install', '-y', 'urlwatch'], { stdio: 'inherit' });
}

/** bench/crawler-browser.ts's figures: its table rows and the JSON figures it adds. */
interface BrowserFigures {
  rows: Record<string, string | number>[];
  [figure: string]: number | string | Record<string, string | number>[];
}

async function measureBrowserMode(): Promise<BrowserFigures | undefined> {
  const module = new URL('./crawler-browser.ts', import.meta.url);
  if (!existsSync(module)) return undefined;
  const { measureBrowser } = (await import(module.href)) as {
    measureBrowser(pages: typeof benchPages): Promise<BrowserFigures>;
  };
  return measureBrowser(benchPages);
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
