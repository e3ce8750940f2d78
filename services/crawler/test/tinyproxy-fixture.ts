import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TinyproxyFixture {
  /** http://127.0.0.1:<port> */
  url: string;
  /**
   * The first line of every request made to the proxy (`CONNECT 127.0.0.1:8080 HTTP/1.1`), so a
   * test can tell a request went through it, and what it was asked to connect to.
   */
  asked: string[];
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
  // A recording relay in front of tinyproxy: tinyproxy itself adds no header inside a tunnel.
  const asked: string[] = [];
  const relay = createServer((client) => {
    const upstream = createConnection(port, '127.0.0.1');
    client.once('data', (first: Buffer) => {
      asked.push(first.toString('latin1').split('\r\n', 1)[0] ?? '');
      upstream.write(first);
      client.pipe(upstream).pipe(client);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const relayAddress = relay.address();
  return {
    url: `http://127.0.0.1:${typeof relayAddress === 'object' && relayAddress ? relayAddress.port : 0}`,
    asked,
    async close() {
      relay.close();
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
