import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A server of the test's own, for fault tests that stop and restart it: the machine's shared
 * PostgreSQL and NATS serve everyone else's tests and must never go down.
 */
export interface OwnServer {
  url: string;
  port: number;
  /** Stops the server (its data stays) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops the server; its data stays for `start`. */
  halt(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  close(): Promise<void>;
}

/** NATS with JetStream on a spare loopback port, its store in a temp folder kept across restarts. */
export async function startOwnNats(): Promise<OwnServer> {
  const storeDir = await mkdtemp(join(tmpdir(), 'own-nats-'));
  const port = await sparePort();
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    output = '';
    const started = spawn(
      '/usr/sbin/nats-server',
      ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [started.stdout, started.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        output = (output + chunk).slice(-4_000);
      });
    }
    child = started;
    // Ready means JetStream recovered its store, which the log says before the client port opens.
    await waitUntil(
      `nats-server on port ${port}`,
      async () => {
        if (started.exitCode !== null) throw new Error(`nats-server exited: ${output}`);
        return output.includes('Server is ready') && (await accepts(port));
      },
      30_000,
    );
  };
  const halt = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const killer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    async restart() {
      await halt();
      await start();
    },
    halt,
    start,
    async close() {
      await halt();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/**
 * PostgreSQL of its own: `initdb` into a temp folder and `pg_ctl` on a spare loopback port, run
 * as the `postgres` user (the server refuses root), trust authentication. `url` names the
 * `postgres` database.
 */
export async function startOwnPostgres(): Promise<OwnServer> {
  const bin = await postgresBin();
  const dataDir = await mkdtemp(join(tmpdir(), 'own-postgres-'));
  const { uid, gid } = await postgresUser();
  await chown(dataDir, uid, gid);
  await chmod(dataDir, 0o700);
  const port = await sparePort();
  const asPostgres = (command: string, args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { timeout: 120_000 });
  await asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // Eight services with a pool each, and the test's own connections.
  const options = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`;
  const ctl = (action: string, ...extra: string[]) =>
    asPostgres('pg_ctl', [action, '-D', dataDir, '-w', '-t', '60', ...extra]);
  const start = async () => {
    await ctl('start', '-o', options, '-l', join(dataDir, 'server.log'));
  };
  const halt = async () => {
    await ctl('stop', '-m', 'fast');
  };
  await start();
  let closed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart() {
      await ctl('restart', '-m', 'fast', '-o', options, '-l', join(dataDir, 'server.log'));
    },
    halt,
    start,
    async close() {
      if (closed) return;
      closed = true;
      await halt().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgresBin(): Promise<string> {
  for (const candidate of [
    '/usr/local/bin',
    '/usr/lib/postgresql/17/bin',
    '/usr/lib/postgresql/16/bin',
    '/usr/lib/postgresql/15/bin',
  ]) {
    const found = await run('test', ['-x', join(candidate, 'pg_ctl')]).then(
      () => true,
      () => false,
    );
    if (found) return candidate;
  }
  throw new Error('pg_ctl not found in /usr/local/bin or /usr/lib/postgresql/*/bin');
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A port the OS had free a moment ago; the server started on it right after. */
function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitUntil(what: string, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ready()) return;
    await sleep(100);
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms`);
}
