import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const SERVICES = ['account', 'target', 'filings', 'scheduler', 'crawler', 'diff', 'notifier'] as const;
export type ServiceName = (typeof SERVICES)[number] | 'gateway';

export interface ClusterOptions {
  databaseUrl: string;
  natsUrl: string;
  smtpUrl: string;
  /** The gateway's port; 0 lets it pick a free one (tests), reported in `url`. */
  httpPort: number;
  /** SECRET_KEYS shared by the services that seal and open user secrets. */
  secretKeys: string;
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Each output line of every process, tagged with its service. */
  onLine?: (service: ServiceName, line: string) => void;
}

export interface Cluster {
  url: string;
  processes: Map<ServiceName, ChildProcess>;
  opsUrls: Map<ServiceName, string>;
  grpcAddresses: Map<ServiceName, string>;
  /**
   * SIGTERM to every process; resolves with each exit code. A process still running after
   * `killAfterMs` is killed and reported with the code null.
   */
  stop(killAfterMs?: number): Promise<Map<ServiceName, number | null>>;
  /**
   * Stops one service with `signal` (SIGKILL: a crash), starts it again with the same
   * environment and waits until it is ready (fault tests).
   */
  restart(service: ServiceName, signal?: NodeJS.Signals): Promise<void>;
}

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts every service as its own Node process against real PostgreSQL and NATS, the way
 * Kubernetes runs them, and waits until each one reports ready.
 */
export async function launchCluster(options: ClusterOptions): Promise<Cluster> {
  const processes = new Map<ServiceName, ChildProcess>();
  const opsUrls = new Map<ServiceName, string>();
  const grpcAddresses = new Map<ServiceName, string>();
  // Each process binds port 0 and says in its 'service started' line where it listens (the
  // gateway's HTTP server as `url`): a port chosen here and freed before the child binds it could
  // meanwhile go to any other socket on the machine. Those lines are info-level, so nothing
  // coarser is used.
  const level = options.env?.LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'info';
  const common = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    NATS_URL: options.natsUrl,
    SECRET_KEYS: options.secretKeys,
    ...options.env,
    LOG_LEVEL: ['info', 'debug', 'trace'].includes(level) ? level : 'info',
  };
  const started = new Map<ServiceName, Promise<Record<string, unknown>>>();
  const recentLines = new Map<ServiceName, string[]>();
  const envs = new Map<ServiceName, Record<string, string>>();
  const start = (service: ServiceName, env: Record<string, string>) => {
    envs.set(service, env);
    const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
      cwd: root,
      env: { ...common, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      let buffered = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          const recent = recentLines.get(service) ?? [];
          recent.push(line);
          recentLines.set(service, recent.slice(-20));
          options.onLine?.(service, line);
        }
      });
    }
    processes.set(service, child);
    started.set(service, startedLine(service, child));
  };
  const startedLine = (service: ServiceName, child: ChildProcess) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => fail(`${service} did not start within 60 s`), 60_000);
      const fail = (reason: string) => {
        clearTimeout(timer);
        reject(new Error(`${reason}; its last lines:\n${(recentLines.get(service) ?? []).join('\n')}`));
      };
      child.once('exit', (code) => fail(`${service} exited with ${code} before it started`));
      const watch = (chunk: string) => {
        for (const line of chunk.split('\n')) {
          if (!line.startsWith('{')) continue;
          try {
            const entry = JSON.parse(line) as Record<string, unknown>;
            if (entry.msg === 'service started') {
              clearTimeout(timer);
              child.stdout?.off('data', watch);
              resolve(entry);
            }
          } catch {
            // Not a log line of ours.
          }
        }
      };
      child.stdout?.on('data', watch);
    });
  const whenStarted = async (service: ServiceName) => {
    const entry = await (started.get(service) ?? Promise.reject(new Error(`${service} was not started`)));
    if (typeof entry.grpcAddress === 'string') grpcAddresses.set(service, entry.grpcAddress);
    if (typeof entry.opsUrl === 'string') opsUrls.set(service, entry.opsUrl.replace(/\/?$/, '/'));
    return entry;
  };

  const cluster: Cluster = {
    url: '',
    processes,
    opsUrls,
    grpcAddresses,
    async stop(killAfterMs = 10_000) {
      const exits = new Map<ServiceName, number | null>();
      await Promise.all(
        [...processes].map(
          ([service, child]) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) {
                exits.set(service, child.exitCode);
                return resolve();
              }
              const kill = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
              child.once('exit', (code) => {
                clearTimeout(kill);
                exits.set(service, code);
                resolve();
              });
              child.kill('SIGTERM');
            }),
        ),
      );
      return exits;
    },
    async restart(service, signal = 'SIGTERM') {
      const child = processes.get(service);
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await exited;
      }
      start(service, envs.get(service) ?? {});
      const entry = await whenStarted(service);
      await waitForOk(
        `${service === 'gateway' ? entry.url : opsUrls.get(service)}readyz`,
        processes.get(service),
      );
    },
  };

  try {
    const ports = { GRPC_PORT: '0', OPS_PORT: '0' };
    // The notifier calls account, so it comes first; target and filings with it, so that the
    // second wave starts four processes rather than seven on a loaded machine (each must start
    // within 60 s).
    const first = ['account', 'target', 'filings'] as const;
    for (const service of first) start(service, ports);
    await Promise.all(first.map(whenStarted));
    for (const service of SERVICES.filter((name) => !(first as readonly string[]).includes(name))) {
      start(service, {
        ...ports,
        ...(service === 'notifier'
          ? { SMTP_URL: options.smtpUrl, ACCOUNT_GRPC_ADDR: grpcAddresses.get('account') ?? '' }
          : {}),
      });
    }
    await Promise.all(SERVICES.map(whenStarted));
    // Migrations of separate schemas run in parallel; readiness waits for all of them.
    await Promise.all(
      SERVICES.map((service) => waitForOk(`${opsUrls.get(service)}readyz`, processes.get(service))),
    );
    start('gateway', {
      HTTP_PORT: String(options.httpPort),
      ACCOUNT_GRPC_ADDR: grpcAddresses.get('account') ?? '',
      CRAWLER_GRPC_ADDR: grpcAddresses.get('crawler') ?? '',
      TARGET_GRPC_ADDR: grpcAddresses.get('target') ?? '',
      DIFF_GRPC_ADDR: grpcAddresses.get('diff') ?? '',
      FILINGS_GRPC_ADDR: grpcAddresses.get('filings') ?? '',
      WEB_DIST_DIR: `${root}web/dist`,
    });
    cluster.url = String((await whenStarted('gateway')).url);
    await waitForOk(`${cluster.url}readyz`, processes.get('gateway'));
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

export function freePort(): Promise<number> {
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

async function waitForOk(url: string, child: ChildProcess | undefined, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`process exited with ${child.exitCode} before ${url} was ready`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms`);
}
