import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { browserMemoryBytes } from './browser-memory.ts';

describe('browserMemoryBytes', () => {
  it("sums the resident memory of the process's descendants, children's children included", async () => {
    // A child that starts a grandchild holding 64 MiB, as Chromium's browser starts renderers.
    // The grandchild says ready on the shared stdout once its memory is touched.
    const script = `
      const { spawn } = require('node:child_process');
      const hold = "globalThis.kept = Buffer.alloc(64 * 1024 * 1024, 1); console.log('ready'); setInterval(() => {}, 1000)";
      const grandchild = spawn(process.execPath, ['-e', hold], { stdio: ['ignore', 'inherit', 'inherit'] });
      setInterval(() => {}, 1000);
      process.on('SIGTERM', () => { grandchild.kill(); process.exit(0); });
    `;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await once(child.stdout, 'data');
      const bytes = await browserMemoryBytes();
      expect(bytes).toBeGreaterThan(64 * 1024 * 1024);
      // The count is of this process's descendants only: another process's tree has none of them.
      expect(await browserMemoryBytes(child.pid)).toBeGreaterThan(64 * 1024 * 1024);
      expect(await browserMemoryBytes(child.pid)).toBeLessThan(bytes + 1);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('is 0 for a process that started none', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      expect(await browserMemoryBytes(child.pid)).toBe(0);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});
