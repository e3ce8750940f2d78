import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

// A setup file vitest.config.ts adds when TEST_CPU_LOG names a file: each test file appends one
// line, "file<TAB>own CPU-s<TAB>children's CPU-s<TAB>wall s". The children are the products,
// browsers and cluster processes the file started and stopped (the kernel adds a child's CPU to its
// parent once it has exited), so the figure is the file's whole work, whatever else shares the
// machine: wall-clock seconds on a shared 2-core machine say little, CPU-seconds do.

/** utime, stime, cutime and cstime of this worker, in clock ticks (proc(5); 100 a second). */
function ticks(): number[] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].map((index) => Number(fields[index]));
}

let start: number[] = [];
let startedAt = 0;
beforeAll(() => {
  start = ticks();
  startedAt = Date.now();
});
// Registered first, so it runs after the file's own afterAll hooks have stopped what it started.
afterAll(() => {
  const [user = 0, system = 0, childUser = 0, childSystem = 0] = ticks().map(
    (value, index) => value - (start[index] ?? 0),
  );
  const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
  const seconds = (value: number) => (value / 100).toFixed(1);
  appendFileSync(
    process.env.TEST_CPU_LOG ?? 'cpu-per-file.tsv',
    `${file}\t${seconds(user + system)}\t${seconds(childUser + childSystem)}\t${((Date.now() - startedAt) / 1000).toFixed(1)}\n`,
  );
});
