import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Where each security test leaves its figures for `pnpm test:security` to print together. */
export const SECURITY_RESULTS_DIR = resolve(import.meta.dirname, '../../../../test-results/security');

export async function writeSecurityFigures(name: string, figures: Record<string, unknown>): Promise<void> {
  await mkdir(SECURITY_RESULTS_DIR, { recursive: true });
  await writeFile(join(SECURITY_RESULTS_DIR, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}

export async function readSecurityFigures(): Promise<Record<string, Record<string, unknown>>> {
  const names = await readdir(SECURITY_RESULTS_DIR).catch(() => [] as string[]);
  const figures: Record<string, Record<string, unknown>> = {};
  for (const name of names.filter((file) => file.endsWith('.json')).sort()) {
    figures[name.slice(0, -'.json'.length)] = JSON.parse(
      await readFile(join(SECURITY_RESULTS_DIR, name), 'utf8'),
    );
  }
  return figures;
}
