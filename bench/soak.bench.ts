// Memory soak of browser checks: the product's fetcher and pool checking the crawler bench's
// pages without pause, 8 in flight, for BENCH_SOAK_MINUTES (30). Samples the checking process's
// RSS and the PSS of its Chromium process tree every 10 s, and compares the last ten minutes
// with minutes 5–10 (issue 17: flat means the later within 10 % of the earlier). A shorter soak
// scales both windows to the same fractions of its length.
import { createBrowserPageFetcher, createBrowserPool } from '@mimamori/crawler';
import { browserTreePssMb } from './crawler-browser.ts';
import { generateCrawlerPages } from './fixtures/crawler-pages.ts';
import { startPageServer } from './fixtures/start-page-server.ts';
import { report } from './report.ts';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const PAGES = Number(process.env.BENCH_SOAK_PAGES ?? 500);
const IN_FLIGHT = Number(process.env.BENCH_BROWSER_IN_FLIGHT ?? 8);
const SAMPLE_MS = 10_000;

const pages = generateCrawlerPages(PAGES);
const server = await startPageServer(PAGES);
const origin = `http://127.0.0.1:${server.port}`;
const pool = createBrowserPool({ allow: [`127.0.0.1:${server.port}`], pagesPerBrowser: IN_FLIGHT });
const fetcher = createBrowserPageFetcher({ pool });

interface Sample {
  minute: number;
  rssMb: number;
  pssMb: number;
}
const samples: Sample[] = [];
const started = performance.now();
const minute = () => (performance.now() - started) / 60_000;
const sample = () =>
  samples.push({ minute: minute(), rssMb: process.memoryUsage.rss() / 1_048_576, pssMb: browserTreePssMb() });
const sampler = setInterval(sample, SAMPLE_MS);

let checks = 0;
let failed = 0;
let next = 0;
try {
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (minute() < MINUTES) {
        const page = pages[next++ % pages.length] as (typeof pages)[number];
        const result = await fetcher.fetch(
          {
            url: `${origin}${page.path}`,
            mode: 'browser',
            userAgent: { kind: 'chrome' },
            actions: [],
            areas: [{ areaId: 'watched', selector: page.selector, selectorType: 'css' }],
            screenshot: 'none',
          },
          new AbortController().signal,
        );
        checks++;
        if (!result.ok) failed++;
      }
    }),
  );
  sample();
} finally {
  clearInterval(sampler);
  await fetcher.close();
  server.child.kill('SIGTERM');
}

/** Mean of a figure over the samples taken between two fractions of the soak. */
function mean(from: number, to: number, figure: (sample: Sample) => number): number {
  const within = samples.filter((one) => one.minute >= from * MINUTES && one.minute <= to * MINUTES);
  return within.reduce((sum, one) => sum + figure(one), 0) / Math.max(1, within.length);
}
const early = [5 / 30, 10 / 30] as const;
const late = [20 / 30, 1] as const;
const total = (one: Sample) => one.rssMb + one.pssMb;
const figures = {
  soak_minutes: MINUTES,
  soak_checks: checks,
  soak_failed: failed,
  soak_checks_per_s: round(checks / (minute() * 60)),
  crawler_rss_mb_minutes_5_10: round(mean(...early, (one) => one.rssMb)),
  crawler_rss_mb_last_10: round(mean(...late, (one) => one.rssMb)),
  browser_pss_mb_minutes_5_10: round(mean(...early, (one) => one.pssMb)),
  browser_pss_mb_last_10: round(mean(...late, (one) => one.pssMb)),
  crawler_memory_mb_minutes_5_10: round(mean(...early, total)),
  crawler_memory_mb_last_10: round(mean(...late, total)),
  // Last ten minutes over minutes 5–10, process and browsers together: ≤ 1.1 is flat.
  soak_memory_ratio_last_vs_5_10: round(mean(...late, total) / mean(...early, total), 3),
};
report(
  `soak: browser checks for ${MINUTES} min, ${IN_FLIGHT} in flight (memory each ${SAMPLE_MS / 1000} s)`,
  samples
    .filter((_, index) => index % 6 === 5)
    .map((one) => ({
      minute: round(one.minute),
      rss_mb: round(one.rssMb),
      browser_pss_mb: round(one.pssMb),
    })),
  figures,
);

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
