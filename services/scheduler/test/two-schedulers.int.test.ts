import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/domain/clock.ts';
import { MINUTE, newSite, type SchedulerHarness, startSchedulerHarness } from './scheduler-harness.ts';

const SITES = 40;
/** Simulated time runs this many times faster than real time, so minutes pass in seconds. */
const SPEED = 40;

describe('two schedulers at once (PostgreSQL + JetStream)', () => {
  let harness: SchedulerHarness;

  beforeAll(async () => {
    harness = await startSchedulerHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('dispatch every due time once between them', async () => {
    const realStart = Date.now();
    const simulatedStart = Date.UTC(2026, 0, 1, 9, 0, 0);
    const clock: Clock = { now: () => new Date(simulatedStart + (Date.now() - realStart) * SPEED) };
    const published = { first: new Set<string>(), second: new Set<string>() };
    // Each has its own PostgreSQL pool and NATS connection, as two processes would.
    await harness.startScheduler({
      clock,
      tickMs: 20,
      ownConnections: true,
      onDispatched: ({ checkId }) => published.first.add(checkId),
    });
    await harness.startScheduler({
      clock,
      tickMs: 20,
      ownConnections: true,
      onDispatched: ({ checkId }) => published.second.add(checkId),
    });
    const sites = Array.from({ length: SITES }, () => newSite(1));
    await Promise.all(sites.map((site) => harness.publishState('registered', site)));
    await harness.untilProcessed('scheduler-target-registered', SITES);

    // Both run while every site falls due about four times.
    await new Promise((resolve) => setTimeout(resolve, (4 * MINUTE) / SPEED));
    await harness.stopSchedulers();
    const checks = await harness.takeChecks();

    const ids = checks.map((check) => check.checkId);
    expect(new Set(ids).size).toBe(ids.length);
    const perSite = new Map<string, number>();
    for (const check of checks) perSite.set(check.targetId, (perSite.get(check.targetId) ?? 0) + 1);
    expect(perSite.size).toBe(SITES);
    for (const count of perSite.values()) expect(count).toBeGreaterThanOrEqual(3);
    // Both really dispatched the same due times; the queue holds each once.
    const both = [...published.first].filter((id) => published.second.has(id));
    expect(both.length).toBeGreaterThan(SITES);
    expect(new Set([...published.first, ...published.second])).toEqual(new Set(ids));
  });
});
