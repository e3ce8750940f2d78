import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TinyproxyFixture {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

/** A real forward proxy (Debian's tinyproxy) on a free loopback port, in the foreground. */
export async function startTinyproxy(): Promise<TinyproxyFixture> {
  const folder = await mkdtemp(join(tmpdir(), 'tinyproxy-'));
  const port = await freePort();
  const config = join(folder, 'tinyproxy.conf');
  await writeFile(
    config,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 30',
      'MaxClients 20',
      'Allow 127.0.0.1',
      'ViaProxyName "fixture-proxy"',
      'LogLevel Error',
      `PidFile "${join(folder, 'tinyproxy.pid')}"`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('/usr/bin/tinyproxy', ['-d', '-c', config], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, child);
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      child.kill('SIGTERM');
      await exited;
      await rm(folder, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    if (child.exitCode !== null) throw new Error(`tinyproxy exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('tinyproxy did not start listening');
}
