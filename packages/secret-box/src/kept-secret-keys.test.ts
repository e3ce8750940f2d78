import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptSecretKeys } from './kept-secret-keys.ts';
import { createSecretBox } from './secret-box.ts';

describe('kept secret keys', () => {
  it('makes a key on first use, readable only by its owner, and returns the same one afterwards', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'secret-keys-'));
    try {
      const file = join(dir, 'nested', 'secret-keys');
      const first = await keptSecretKeys(file);
      expect(await keptSecretKeys(file)).toBe(first);
      const sealed = createSecretBox(first).seal('webhook', 'c');
      expect(createSecretBox(await keptSecretKeys(file)).open(sealed, 'c')).toBe('webhook');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
