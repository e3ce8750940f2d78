import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoopbackNamespaceRun {
  /** A TypeScript or JavaScript file run by the current Node with tsx. */
  script: string;
  args?: string[];
  /** Extra addresses put on the namespace's loopback interface, e.g. `169.254.169.254/32`. */
  addresses?: string[];
  /** Names the namespace resolves (its own /etc/hosts), e.g. `{ 'metadata.test': '169.254.169.254' }`. */
  hosts?: Record<string, string>;
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * Runs a script in a fresh network namespace that has only a loopback interface, for tests
 * that would send a packet to a refused address if the egress guard failed: there, such a
 * packet cannot leave the machine. Refused addresses can be put on that loopback so a broken
 * guard would visibly connect. Throws when the machine cannot create the namespace: such tests
 * must fail, not pass without running.
 */
export async function runInLoopbackNamespace(
  run: LoopbackNamespaceRun,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'loopback-ns-'));
  try {
    const hostsFile = join(folder, 'hosts');
    const hosts = Object.entries(run.hosts ?? {}).map(([name, address]) => `${address} ${name}`);
    await writeFile(hostsFile, ['127.0.0.1 localhost', '::1 localhost', ...hosts, ''].join('\n'));
    const setup = [
      'ip link set lo up',
      ...(run.addresses ?? []).map((address) => `ip addr add ${address} dev lo`),
      `mount --bind "$1" /etc/hosts`,
      'shift',
      'exec "$@"',
    ].join(' && ');
    const command = [process.execPath, '--import', 'tsx', run.script, ...(run.args ?? [])];
    return await new Promise((resolve, reject) => {
      const child = spawn('unshare', ['-rnm', 'sh', '-c', setup, 'sh', hostsFile, ...command], {
        cwd: run.cwd,
        env: { ...process.env, ...run.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      child.on('error', (error) =>
        reject(new Error(`cannot start a loopback-only network namespace (unshare): ${error.message}`)),
      );
      child.on('close', (code) => {
        if (code !== 0 && /unshare|ip: |mount/.test(stderr) && !stdout) {
          reject(new Error(`cannot set up a loopback-only network namespace: ${stderr.trim()}`));
        } else resolve({ code, stdout, stderr });
      });
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
