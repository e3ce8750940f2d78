import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ManualClock,
  MINUTE,
  newSite,
  type SchedulerHarness,
  startSchedulerHarness,
} from './scheduler-harness.ts';

describe('the scheduler service on the host (PostgreSQL + JetStream)', () => {
  let harness: SchedulerHarness;

  beforeAll(async () => {
    harness = await startSchedulerHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('its own loop dispatches due checks, and after shutdown sends nothing more', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
    await harness.startScheduler({ clock, tickMs: 20 });
    const site = newSite(1);
    await harness.publishState('registered', site);
    await harness.untilApplied(site.targetId, 1);

    // The loop has started its window by now (the schema existed before the event was applied).
    const received: string[] = [];
    for (let step = 0; step < 7 && received.length === 0; step++) {
      clock.advance(10_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      received.push(...(await harness.takeChecks()).map((check) => check.targetId));
    }
    expect(received).toEqual([site.targetId]);

    await harness.stopSchedulers();
    clock.advance(30_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    clock.advance(30_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await harness.takeChecks()).toHaveLength(0);
    expect(clock.now().getTime() - Date.UTC(2026, 0, 1, 9, 0, 0)).toBeGreaterThan(MINUTE);
  });
});
