import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { cpuPercent, sampleProcesses } from './load-processes.ts';

it('sums memory and CPU over a process tree, with the descendants apart', async () => {
  // A shell that starts a Node child spending half a CPU-second by its own account, then idling:
  // the child's time counts to the shell's tree, however loaded the machine is.
  const spend =
    'let u; do u = process.cpuUsage(); while (u.user + u.system < 500000); console.log("spent"); setTimeout(() => {}, 30000);';
  const parent = spawn('sh', ['-c', `"${process.execPath}" -e '${spend}'`], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // Its own process group, so that the child goes with the shell.
    detached: true,
  });
  try {
    const roots = new Map([['shell', parent.pid as number]]);
    const start = sampleProcesses(roots);
    await once(parent.stdout, 'data');
    const end = sampleProcesses(roots);
    const shell = end.shell;
    expect(shell?.processes).toBe(2);
    // A Node process holds tens of MiB; the shell a few.
    expect(shell?.childRssMb).toBeGreaterThan(20);
    expect(shell?.rssMb).toBeGreaterThan(shell?.childRssMb ?? 0);
    // Per one second: the half CPU-second spent, plus Node's start-up.
    const cpu = cpuPercent(start, end, 1).shell;
    expect(cpu?.children).toBeGreaterThanOrEqual(45);
    expect(cpu?.children).toBeLessThan(150);
    expect(cpu?.total).toBeGreaterThanOrEqual(cpu?.children ?? Number.POSITIVE_INFINITY);
  } finally {
    process.kill(-(parent.pid as number), 'SIGKILL');
  }
});
