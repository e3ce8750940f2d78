import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/cluster/launch-cluster.ts';

export interface CrawlerProcess {
  child: ChildProcess;
  /** host:port of its gRPC server (the wizard preview). */
  grpcAddress: string;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The real crawler entry point as its own process, resolved once it reports ready. */
export async function startCrawlerProcess(env: Record<string, string>): Promise<CrawlerProcess> {
  const [grpcPort, opsPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/crawler/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(grpcPort),
      OPS_PORT: String(opsPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const complete = buffered.split('\n');
      buffered = complete.pop() ?? '';
      lines.push(...complete);
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // A minute: on a loaded two-core machine a fresh process compiling TypeScript takes a while.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`crawler exited with ${child.exitCode}:\n${lines.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`crawler was not ready:\n${lines.join('\n')}`);
    const ready = await fetch(`http://127.0.0.1:${opsPort}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { child, grpcAddress: `127.0.0.1:${grpcPort}`, lines, exited };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
