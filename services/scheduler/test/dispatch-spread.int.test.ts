import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phaseOf } from '../src/domain/phase.ts';
import {
  ManualClock,
  MINUTE,
  newSite,
  type SchedulerHarness,
  type Site,
  startSchedulerHarness,
} from './scheduler-harness.ts';

const SITES = 120;

describe('dispatch is spread over the interval (PostgreSQL + JetStream)', () => {
  let harness: SchedulerHarness;
  let sites: Site[];

  beforeAll(async () => {
    harness = await startSchedulerHarness();
    await harness.startScheduler();
    sites = Array.from({ length: SITES }, () => newSite(1));
    await Promise.all(sites.map((site) => harness.publishState('registered', site)));
    await harness.untilProcessed('scheduler-target-registered', SITES);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('sites registered together fire in different seconds, each once a minute', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
    const dispatcher = harness.dispatcher(clock);
    await dispatcher.tick();
    const perSecond: number[] = [];
    for (let second = 0; second < 60; second++) {
      clock.advance(1_000);
      perSecond.push(await dispatcher.tick());
    }
    const checks = await harness.takeChecks();
    expect(new Set(checks.map((check) => check.targetId)).size).toBe(SITES);
    expect(checks).toHaveLength(SITES);
    // 120 sites over 60 seconds; all in one second (or a few) is what the phase prevents.
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(12);
    expect(perSecond.filter((count) => count > 0).length).toBeGreaterThan(30);
  });

  it('a restart after downtime sends the checks due from then on, not everything it missed', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 10, 0, 0, 500));
    const before = harness.dispatcher(clock);
    await before.tick();
    clock.advance(1_000);
    await before.tick();
    await before.stop();
    await harness.takeChecks();

    clock.advance(10 * MINUTE);
    const after = harness.dispatcher(clock);
    expect(await after.tick()).toBe(0);
    const restartedAt = clock.now().getTime();
    clock.advance(1_000);
    await after.tick();
    const checks = await harness.takeChecks();
    const expected = sites.filter((site) => {
      const phase = phaseOf(site.targetId, site.userId, MINUTE);
      const start = restartedAt % MINUTE;
      return phase > start && phase <= start + 1_000;
    });
    expect(checks.map((check) => check.targetId).sort()).toEqual(
      expected.map((site) => site.targetId).sort(),
    );
    expect(checks.length).toBeLessThan(SITES / 6);
  });
});
