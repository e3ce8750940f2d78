import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { testTimeEnv } from '@mimamori/test-fixtures';
import { inject } from 'vitest';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const READY_LINE = /Mimamori is running at (http:\/\/127\.0\.0\.1:\d+\/)/;
const READY_TIMEOUT_MS = 90_000;
/** How long a file waits for the run's database template before its product makes its own. */
const TEMPLATE_WAIT_MS = 60_000;
/** A product that ignores SIGTERM this long is killed, so a broken shutdown fails instead of hanging. */
const STOP_TIMEOUT_MS = 30_000;

/** The product running as one process, as `pnpm start` runs it. */
export type RunningProduct = {
  /** Where it serves, e.g. http://127.0.0.1:41234/ */
  url: URL;
  /** Its fresh data folder (removed by stop). */
  dataDir: string;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output: () => string;
  /**
   * Sends SIGTERM, waits for the exit and removes the data folder. Resolves with the exit
   * code (null when a signal ended it). Calling it again returns the same result.
   */
  stop: () => Promise<number | null>;
};

export type StartProductOptions = {
  /** Extra environment for the product, on top of this process's own. */
  env?: Record<string, string>;
};

/**
 * Starts `standalone/src/main.ts` on a free port with a fresh data folder and
 * resolves once it prints its address. The SPA must be built first (web/dist, or the folder
 * MIMAMORI_WEB_DIST names).
 */
export async function startProduct(options: StartProductOptions = {}): Promise<RunningProduct> {
  const indexHtml = join(process.env.MIMAMORI_WEB_DIST ?? join(repoRoot, 'web/dist'), 'index.html');
  if (!existsSync(indexHtml)) {
    throw new Error(`${indexHtml} is missing: build the SPA first with pnpm --filter @mimamori/web build`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'mimamori-e2e-'));
  // A migrated, empty database from the run's template (e2e/database-template.ts).
  const template = inject('productDatabaseTemplate');
  if (template && (await templateReady(template))) {
    await cp(template, join(dataDir, 'pg'), { recursive: true });
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'standalone/src/main.ts'], {
    cwd: repoRoot,
    // On the tests' scaled time: a 1-minute site is checked every 2 s (TEST_TIME_SCALE).
    env: {
      ...process.env,
      ...testTimeEnv,
      MIMAMORI_HTTP_PORT: '0',
      MIMAMORI_DATA_DIR: dataDir,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  let url: URL;
  try {
    url = await waitForReadyLine(child, () => output, exited);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  let stopped: Promise<number | null> | undefined;
  const stop = () => {
    stopped ??= stopChild(child, exited, () => output).finally(() =>
      rm(dataDir, { recursive: true, force: true }),
    );
    return stopped;
  };
  return { url, dataDir, output: () => output, stop };
}

/**
 * Waits while the run's template is still being made: the first files of a run start before it is
 * ready, and each would otherwise create and migrate its own database (about 6 CPU-seconds) beside
 * the template's product doing the same, on cores the other files need. False when it will not be
 * ready (it failed, or takes longer than a product start may): the product then makes its own.
 */
async function templateReady(template: string): Promise<boolean> {
  const deadline = Date.now() + TEMPLATE_WAIT_MS;
  while (Date.now() < deadline) {
    if (existsSync(join(dirname(template), 'ready'))) return true;
    if (existsSync(join(dirname(template), 'unusable'))) return false;
    await sleep(200);
  }
  return false;
}

function waitForReadyLine(
  child: ChildProcess,
  output: () => string,
  exited: Promise<number | null>,
): Promise<URL> {
  return new Promise<URL>((resolve, reject) => {
    const check = () => {
      const match = READY_LINE.exec(output());
      if (!match?.[1]) return;
      finish();
      resolve(new URL(match[1]));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`the product did not report its address within 90 s; its output:\n${output()}`));
    }, READY_TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      finish();
      reject(new Error(`the product exited with code ${code} before it was ready; its output:\n${output()}`));
    });
  });
}

async function stopChild(
  child: ChildProcess,
  exited: Promise<number | null>,
  output: () => string,
): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the product did not exit within 30 s of SIGTERM; its output:\n${output()}`));
    }, STOP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([exited, hung]);
  } finally {
    clearTimeout(timer);
  }
}
