import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

export const FROM = 'Mimamori <no-reply@mimamori.local>';

// The smallest valid PNG (1×1), so an attachment is a real image.
export const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** A temporary folder, removed when the test that made it finishes. */
export async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mimamori-mailbox-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
