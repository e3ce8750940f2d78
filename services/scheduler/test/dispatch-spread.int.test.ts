import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_SPREAD_MS, phaseOf } from '../src/domain/phase.ts';
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

  it("an account's sites fire within the spread of each other, so its browser context is still warm", async () => {
    const userId = 'user-with-many-sites';
    const account = Array.from({ length: 30 }, () => newSite(1, userId));
    await Promise.all(account.map((site) => harness.publishState('registered', site)));
    await harness.untilProcessed('scheduler-target-registered', SITES + account.length);

    const clock = new ManualClock(Date.UTC(2026, 0, 1, 11, 0, 0));
    const dispatcher = harness.dispatcher(clock);
    await dispatcher.tick();
    const ticksWithTheAccount = new Set<number>();
    const ids = new Set(account.map((site) => site.targetId));
    for (let tick = 0; tick < MINUTE / 250; tick++) {
      clock.advance(250);
      await dispatcher.tick();
      const checks = (await harness.takeChecks()).filter((check) => ids.has(check.targetId));
      if (checks.length > 0) ticksWithTheAccount.add(tick);
    }
    await dispatcher.stop();
    // Within the spread (3 s = 12 ticks), counted around the minute's end, yet not all in one tick.
    const ticks = [...ticksWithTheAccount].sort((a, b) => a - b);
    const gaps = ticks.map((tick, i) => ((ticks[(i + 1) % ticks.length] as number) - tick + 240) % 240);
    const covered = 240 - Math.max(...gaps);
    expect(covered * 250).toBeLessThanOrEqual(ACCOUNT_SPREAD_MS);
    expect(ticks.length).toBeGreaterThan(1);
  });
});
