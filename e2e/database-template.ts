import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  interface ProvidedContext {
    /**
     * The template's database folder; usable once the `ready` file beside it exists, never once the
     * `unusable` file does (the template product failed).
     */
    productDatabaseTemplate: string;
  }
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The e2e project's global setup: the product is started once in the background on a template data
 * folder and stopped as soon as it is ready, so its embedded database holds every service's schema
 * and no rows. Each e2e product then starts on a copy of that database instead of creating one
 * (initdb) and applying all migrations itself: about 5 of a product start's 11 CPU-seconds, paid
 * once a run instead of once a file. Not awaited here, so the other projects' files start at once;
 * an e2e file that starts before the template is ready waits for it (e2e/product.ts). A product's
 * first start on an empty folder stays covered by standalone/src/start-standalone.test.ts and the
 * standalone system tests.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mimamori-e2e-template-'));
  project.provide('productDatabaseTemplate', join(dataDir, 'pg'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'standalone/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test', MIMAMORI_HTTP_PORT: '0', MIMAMORI_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  let ready = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (!ready && output.includes('Mimamori is running at')) {
      ready = true;
      child.kill('SIGTERM');
    }
  });
  // Only a product that started and then shut down cleanly (its database closed) leaves a template;
  // otherwise the waiting files are told to start on an empty folder.
  const built = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      const usable = ready && code === 0;
      void writeFile(join(dataDir, usable ? 'ready' : 'unusable'), '').finally(resolve);
    }),
  );
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await built;
    await rm(dataDir, { recursive: true, force: true });
  };
}
