import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Four projects: unit (pure code, no servers), integration (real PostgreSQL, NATS JetStream,
// SMTP, Chromium; cluster-mode adapters), system (the whole product as separate processes:
// system-tests/) and e2e (the running product in system Chromium).
//
// How Vitest 5 schedules them (read from vitest/dist groupSpecs and BaseSequencer.sort): projects
// that share a `sequence.groupOrder` and a `maxWorkers` form one group whose files share one pool;
// groups run one after another. A project with one worker (`fileParallelism: false`) is put in a
// separate group that runs after everything else, so the e2e files used to start only once the
// last integration file had finished, one at a time: the whole suite was the sum of both.
// The long files start whole products and browsers and wait on them (checks, mails, pages), so all
// the projects share one group of three workers: waits overlap, and on two cores three files keep
// them busy without starving any one (more made the Chromium-heavy files slow).
// Each e2e file starts its own product on a free port with its own data folder and mailbox,
// so e2e files may run beside each other and beside integration files.
const WORKERS = 3;
// Every project runs its files without a fresh module graph each (isolate: false): the files share
// no mutable module state, and importing the services, Playwright and the SDKs anew for each of
// about 220 files cost more CPU than many tests (integration: 150 → 79 CPU-s on 2 cores).

// TEST_CPU_LOG=<file> appends each test file's CPU-seconds (its own and its products', browsers'
// and clusters') to <file>: `TEST_CPU_LOG=$PWD/cpu.tsv pnpm vitest run …`, then sort -k3 -n.
const measureCpu = process.env.TEST_CPU_LOG ? { setupFiles: ['scripts/cpu-per-file.ts'] } : {};

/**
 * Seconds the long files took in a fresh-clone CI run on a 2-core machine (the tests' time scaled,
 * ADR 0019): a fresh clone has no timings cached yet, and without these the longest files would
 * not start first there. The journey (its users two at a time) and failure-alerts (now with the
 * cluster-mode deletion) are estimated from runs alone on a loaded machine until a CI run times them.
 */
const KNOWN_LONG_FILES: [string, number][] = [
  ['e2e/billing-states.e2e.test.ts', 187],
  ['e2e/journey.e2e.test.ts', 135],
  ['e2e/chat-channels.e2e.test.ts', 125],
  ['e2e/conflicts.e2e.test.ts', 124],
  ['services/gateway/test/security/route-table.int.test.ts', 115],
  ['system-tests/faults/nats-restarted.int.test.ts', 94],
  ['e2e/workspaces.e2e.test.ts', 83],
  ['system-tests/unchanged-check-writes.int.test.ts', 72],
  ['e2e/target-detail.e2e.test.ts', 68],
  ['system-tests/failure-alerts.int.test.ts', 65],
  ['e2e/two-factor.e2e.test.ts', 65],
  ['e2e/api-tokens.e2e.test.ts', 59],
  ['e2e/billing.e2e.test.ts', 55],
  ['e2e/dashboard.e2e.test.ts', 54],
  ['e2e/picker.e2e.test.ts', 35],
  ['services/crawler/src/browser/browser-page-fetcher.int.test.ts', 53],
  ['system-tests/pipeline.int.test.ts', 49],
  ['system-tests/faults/postgres-restarted.int.test.ts', 48],
  ['system-tests/faults/notifier-killed.int.test.ts', 46],
  ['e2e/commerce.e2e.test.ts', 44],
  ['e2e/wizard.e2e.test.ts', 46],
  ['e2e/webhooks.e2e.test.ts', 41],
  ['e2e/filings.e2e.test.ts', 40],
  ['e2e/audit-log.e2e.test.ts', 40],
  ['e2e/first-hour.e2e.test.ts', 40],
  ['e2e/documents.e2e.test.ts', 39],
  ['services/crawler/src/browser/revalidation.int.test.ts', 37],
  ['e2e/account.e2e.test.ts', 36],
  ['e2e/quiet-hours.e2e.test.ts', 34],
  ['system-tests/filings.int.test.ts', 33],
  ['system-tests/billing.int.test.ts', 29],
  ['e2e/shell.e2e.test.ts', 29],
  ['deploy/test/image.test.ts', 27],
  ['e2e/account-data.e2e.test.ts', 26],
  ['system-tests/cluster.int.test.ts', 25],
  ['system-tests/filings-standalone.int.test.ts', 24],
  ['e2e/filings-demo.e2e.test.ts', 21],
  ['services/account/src/store/workspace-migration.int.test.ts', 21],
  ['services/gateway/test/audit/audit-log.int.test.ts', 20],
  ['system-tests/documents-standalone.int.test.ts', 19],
  ['e2e/receipts.e2e.test.ts', 19],
  ['standalone/src/start-standalone.test.ts', 19],
  ['services/crawler/test/check-queue.int.test.ts', 15],
];

/**
 * Longest file first across all projects (Vitest's own order runs project by project, by name,
 * which would start three e2e files together and leave the long integration files for last).
 * A file's last timing counts; a file never timed here takes its known length, else is taken as
 * short. A file that failed last time goes first, as Vitest orders it.
 */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const weight = (spec: TestSpecification) => {
      const result = this.ctx.cache.getTestSpecificationResult(spec);
      if (result && !result.failed && result.duration !== undefined) return result.duration;
      const known = KNOWN_LONG_FILES.find(([file]) => spec.moduleId.endsWith(file));
      if (known) return known[1] * 1_000;
      return result?.failed ? Number.POSITIVE_INFINITY : 0;
    };
    // Array sort is stable: files of equal weight keep Vitest's order.
    return ordered.sort((a, b) => {
      const [first, second] = [weight(a), weight(b)];
      return first === second ? 0 : second > first ? 1 : -1;
    });
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            'standalone/src/**/*.test.ts',
            'web/src/**/*.test.ts',
            // The repository's own checks (citations of documents).
            'scripts/*.test.ts',
            // The benches' arithmetic.
            'bench/*.test.ts',
            'helm/test/**/*.test.ts',
            'deploy/test/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          // A few unit files start the embedded database (PGlite, WebAssembly) or encode a
          // 16,000-pixel image: on a slower 2-core machine, beside two Chromium-heavy files, one
          // PGlite start took over 10 s (9 s idle) and the encoding over 5 s, past the defaults.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: WORKERS,
          isolate: false,
          ...measureCpu,
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'packages/*/src/**/*.int.test.ts',
            'services/*/src/**/*.int.test.ts',
            'packages/*/test/**/*.int.test.ts',
            'services/*/test/**/*.int.test.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: WORKERS,
          isolate: false,
          ...measureCpu,
        },
      },
      {
        test: {
          name: 'system',
          include: ['system-tests/**/*.int.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: WORKERS,
          isolate: false,
          ...measureCpu,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          // One migrated database for the run, copied by each file's product (e2e/database-template.ts).
          globalSetup: ['e2e/database-template.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A screen's answer to a click waits on the product, which shares the two cores with
          // two other test files: a second (expect.poll's default) was too short for a sign-up,
          // whose answer takes at least 300 ms by design (the same time for a known address), and
          // on a slower CI machine (steal time, 2026-12-07) a file's first sign-up passed 10 s. A
          // screen that never answers still fails, 20 s later.
          expect: { poll: { timeout: 20_000 } },
          // A file's concurrent tests (the journey's four new users) run two at a time: together they
          // wait for the product's minute once, and two do not starve the product on two cores.
          maxConcurrency: 2,
          maxWorkers: WORKERS,
          isolate: false,
          ...measureCpu,
        },
      },
    ],
  },
});
