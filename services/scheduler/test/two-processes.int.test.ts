import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { testNatsUrl } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phaseOf } from '../src/domain/phase.ts';
import {
  eventually,
  MINUTE,
  type SchedulerHarness,
  type Site,
  startSchedulerHarness,
} from './scheduler-harness.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SITES = 15;

interface SchedulerProcess {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

/** `services/scheduler/src/main.ts` as the cluster runs it, on the harness's database and namespace. */
function startProcess(harness: SchedulerHarness): SchedulerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/scheduler/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: harness.databaseUrl,
      NATS_URL: testNatsUrl(),
      BUS_NAMESPACE: harness.namespace,
      LOG_LEVEL: 'debug',
      SCHEDULER_TICK_MS: '100',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffered += chunk;
      const complete = buffered.split('\n');
      buffered = complete.pop() ?? '';
      lines.push(...complete);
    });
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

/** The checks a process logged as published (JetStream drops the other process's copies). */
function publishedBy(scheduler: SchedulerProcess): number {
  return scheduler.lines
    .map((line) => {
      try {
        return JSON.parse(line) as { msg?: string; published?: number };
      } catch {
        return {};
      }
    })
    .filter((entry) => entry.msg === 'checks dispatched')
    .reduce((sum, entry) => sum + (entry.published ?? 0), 0);
}

describe('two scheduler processes on one PostgreSQL and JetStream', () => {
  let harness: SchedulerHarness;
  const processes: SchedulerProcess[] = [];

  beforeAll(async () => {
    harness = await startSchedulerHarness();
  });
  afterAll(async () => {
    for (const scheduler of processes) scheduler.child.kill('SIGKILL');
    await harness?.close();
  });

  it('publish each start check and due time of each site once between them, and exit cleanly on SIGTERM', async () => {
    processes.push(startProcess(harness), startProcess(harness));
    await eventually(
      async () =>
        processes.every((scheduler) => scheduler.lines.some((line) => line.includes('service started'))),
      'both scheduler processes started',
    );

    // Sites whose phase falls a few seconds from now, so they are due without waiting a minute.
    const from = Date.now() + 4_000;
    const sites: Site[] = [];
    while (sites.length < SITES) {
      // An account's sites share its phase (ADR 0018), so each site gets an account of its own.
      const targetId = randomUUID();
      const userId = `user-${randomUUID()}`;
      const offset = (((phaseOf(targetId, userId, MINUTE) - from) % MINUTE) + MINUTE) % MINUTE;
      if (offset < 4_000) sites.push({ targetId, userId, intervalMinutes: 1, revision: 1 });
    }
    await Promise.all(sites.map((site) => harness.publishState('registered', site)));
    await harness.untilProcessed('scheduler-target-registered', SITES);

    // Each site is checked once at its start (ADR 0020) and once at its phase.
    const expected = 2 * SITES;
    const checks: string[] = [];
    await eventually(async () => {
      checks.push(...(await harness.takeChecks()).map((check) => check.checkId));
      return checks.length >= expected && Date.now() > from + 5_000;
    }, 'every site dispatched');
    for (const scheduler of processes) scheduler.child.kill('SIGTERM');
    expect(await Promise.all(processes.map((scheduler) => scheduler.exited))).toEqual([0, 0]);
    checks.push(...(await harness.takeChecks()).map((check) => check.checkId));

    expect(checks).toHaveLength(expected);
    expect(new Set(checks.map((id) => id.slice(0, 36)))).toEqual(new Set(sites.map((site) => site.targetId)));
    // Each process published every due check; the queue holds one of each.
    expect(publishedBy(processes[0] as SchedulerProcess)).toBeGreaterThanOrEqual(expected);
    expect(publishedBy(processes[1] as SchedulerProcess)).toBeGreaterThanOrEqual(expected);
  });
});
