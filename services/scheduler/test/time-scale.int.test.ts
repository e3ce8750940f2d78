import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, newSite, type SchedulerHarness, startSchedulerHarness } from './scheduler-harness.ts';

// Test runs pass the product's minutes faster (MIMAMORI_TIME_SCALE, refused outside NODE_ENV=test):
// the scheduler then counts intervals and the failing sites' backoff in its shorter minute, so
// system and e2e tests see a "1-minute" site checked every few seconds.
const SCALE = 60;
const SCALED_MINUTE = 60_000 / SCALE;

describe('the scheduler under a time scale (PostgreSQL + JetStream)', () => {
  let harness: SchedulerHarness;

  beforeAll(async () => {
    harness = await startSchedulerHarness();
    await harness.startScheduler({ timeScale: SCALE, backoffMaxMs: 4 * 60_000 });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('checks a 1-minute site every scaled minute and a 10-minute site every ten of them', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
    const dispatcher = harness.dispatcher(clock, SCALED_MINUTE);
    await dispatcher.tick();
    const fast = newSite(1);
    const slow = newSite(10);
    for (const site of [fast, slow]) {
      await harness.publishState('registered', site);
      await harness.untilApplied(site.targetId, 1);
    }
    await harness.takeChecks();

    const due = new Map<string, number[]>();
    // 30 scaled minutes in ticks of a quarter of one.
    for (let step = 0; step < 30 * 4; step++) {
      clock.advance(SCALED_MINUTE / 4);
      await dispatcher.tick();
    }
    for (const check of await harness.takeChecks()) {
      due.set(check.targetId, [...(due.get(check.targetId) ?? []), (check.dueAt as Date).getTime()]);
    }
    const gaps = (times: number[] = []) =>
      times.slice(1).map((time, index) => time - (times[index] as number));
    expect(due.get(fast.targetId)).toHaveLength(30);
    expect(new Set(gaps(due.get(fast.targetId)))).toEqual(new Set([SCALED_MINUTE]));
    expect(due.get(slow.targetId)).toHaveLength(3);
    expect(new Set(gaps(due.get(slow.targetId)))).toEqual(new Set([10 * SCALED_MINUTE]));
  });

  it('caps a failing site’s backoff at the scaled maximum', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 2, 9, 0, 0));
    const dispatcher = harness.dispatcher(clock, SCALED_MINUTE);
    await dispatcher.tick();
    const site = newSite(1);
    await harness.publishState('registered', site);
    await harness.untilApplied(site.targetId, 1);
    await harness.takeChecks();

    const dispatched: number[] = [];
    for (let step = 0; step < 40 * 4 && dispatched.length < 8; step++) {
      clock.advance(SCALED_MINUTE / 4);
      await dispatcher.tick();
      for (const check of await harness.takeChecks()) {
        if (check.targetId !== site.targetId) continue;
        const dueAt = check.dueAt as Date;
        dispatched.push(dueAt.getTime());
        await harness.publishResult(site.targetId, dueAt, 'error');
        await harness.untilResultCounted(site.targetId, dueAt);
      }
    }
    const first = dispatched[0] as number;
    // Doubling waits of 1, 2, 4 scaled minutes, then the 4-minute maximum, scaled too.
    expect(dispatched.map((dueAt) => (dueAt - first) / SCALED_MINUTE)).toEqual([0, 1, 3, 7, 11, 15, 19, 23]);
  });
});
