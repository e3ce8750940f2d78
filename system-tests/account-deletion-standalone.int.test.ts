import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createShutdown, type Shutdown } from '@mimamori/runtime';
import { TEST_TIME_SCALE } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type Standalone, startStandalone } from '../standalone/src/start-standalone.ts';
import { exportThenDelete } from './rig/deletion-scenario.ts';
import { blobFilesNaming } from './rig/erasure-scan.ts';
import { waitFor } from './rig/wait-for.ts';
import { startWatchedPage, type WatchedPage } from './rig/watched-page.ts';

// Export and self-deletion in the single-process mode: PGlite, the in-process bus, the file-system
// blob store and the local mailbox; billing's clock is the Stripe stand-in's, which the test moves
// past the 30-day grace period.
const logger = createLogger({ service: 'deletion-standalone-test', level: 'silent' });
const DAY = 86_400;

let dataDir: string;
let page: WatchedPage;
let product: Standalone;
let shutdown: Shutdown;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mimamori-deletion-'));
  page = await startWatchedPage();
  shutdown = createShutdown({ logger, timeoutMs: 10_000 });
  product = await startStandalone({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    crawlerAllow: [page.host],
    timeScale: TEST_TIME_SCALE,
    sweepIntervalMs: 200,
    logger,
    shutdown,
  });
}, 120_000);

afterAll(async () => {
  await shutdown?.run('test finished');
  await page?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Stripe's test-clock calls, as billing's clock is moved in the e2e tests. */
async function advanceDays(days: number) {
  const call = async (path: string, form: Record<string, string> = {}) => {
    const response = await fetch(new URL(path, product.stripeStandInUrl ?? ''), {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_local', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    return (await response.json()) as { id: string; frozen_time: number };
  };
  const clock = await call('/v1/test_helpers/test_clocks');
  await call(`/v1/test_helpers/test_clocks/${clock.id}/advance`, {
    frozen_time: String(clock.frozen_time + days * DAY),
  });
}

describe('export and self-deletion in the single-process mode', () => {
  it('exports everything, deletes the account, and after the grace period no row or blob names it', async () => {
    await exportThenDelete(
      {
        url: product.url,
        page,
        db: product.db,
        async mailText(to, subject) {
          const entry = await waitFor(
            `a mail to ${to} matching ${subject}`,
            async () =>
              (await product.mailbox.list()).findLast(
                (mail) => JSON.stringify(mail.to).includes(to) && subject.test(mail.subject ?? ''),
              ),
            60_000,
          );
          return (await product.mailbox.read(entry.id))?.text ?? '';
        },
        blobsNaming: (needles) => blobFilesNaming(product.blobDir, needles),
        passGrace: () => advanceDays(31),
      },
      'deleted-standalone@example.jp',
    );
  }, 240_000);
});
