import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generateSecretKey } from './secret-box.ts';

/**
 * SECRET_KEYS for a product run on one machine (single process, local cluster): made on first
 * start and kept in `file`, because sealed values must still open after a restart.
 */
export async function keptSecretKeys(file: string): Promise<string> {
  const kept = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (kept) return kept;
  const keys = generateSecretKey('local');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${keys}\n`, { mode: 0o600 });
  return keys;
}
