import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { phaseOf } from '../src/domain/phase.ts';
import {
  ManualClock,
  MINUTE,
  newSite,
  type SchedulerHarness,
  startSchedulerHarness,
} from './scheduler-harness.ts';

/** Moves the clock on in 10-second steps, ticking after each, as the loop would. */
async function runFor(clock: ManualClock, dispatcher: Dispatcher, ms: number): Promise<void> {
  for (let passed = 0; passed < ms; passed += 10_000) {
    clock.advance(Math.min(10_000, ms - passed));
    await dispatcher.tick();
  }
}

describe('the schedule follows the sites (PostgreSQL + JetStream)', () => {
  let harness: SchedulerHarness;
  let clock: ManualClock;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    harness = await startSchedulerHarness();
    await harness.startScheduler();
    clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
    dispatcher = harness.dispatcher(clock);
    await dispatcher.tick();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('a registered site gets its template dispatched at its phase every minute; pause stops it, resume restarts it', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site);
    await harness.untilApplied(site.targetId, 1);

    await runFor(clock, dispatcher, 2 * MINUTE);
    const first = await harness.takeChecks();
    expect(first).toHaveLength(2);
    const phase = phaseOf(site.targetId, site.userId, MINUTE);
    for (const check of first) {
      const dueAt = check.dueAt?.getTime() ?? 0;
      expect(dueAt % MINUTE).toBe(phase);
      expect(check.checkId).toBe(`${site.targetId}:${check.dueAt?.toISOString()}`);
      expect(check).toMatchObject({
        targetId: site.targetId,
        userId: site.userId,
        url: `https://example.test/${site.targetId}`,
        areas: [{ areaId: 'a1', locator: { selector: '#price', selectorType: 'css' } }],
        // The watch settings pass through to the crawler and on to diff (ADR 0008).
        watch: { areas: [{ areaId: 'a1', optionsJson: '{"excludeNumbers":true}' }] },
      });
    }
    expect((first[1]?.dueAt?.getTime() ?? 0) - (first[0]?.dueAt?.getTime() ?? 0)).toBe(MINUTE);

    await harness.publishState('paused', { ...site, revision: 2, paused: true });
    await harness.untilApplied(site.targetId, 2);
    await runFor(clock, dispatcher, 3 * MINUTE);
    expect(await harness.takeChecks()).toHaveLength(0);

    await harness.publishState('resumed', { ...site, revision: 3 });
    await harness.untilApplied(site.targetId, 3);
    await runFor(clock, dispatcher, 2 * MINUTE);
    expect((await harness.takeChecks()).map((check) => check.targetId)).toEqual([
      site.targetId,
      site.targetId,
    ]);
  });

  it('an update moves the site to its new interval; an older event arriving late changes nothing', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site);
    await harness.publishState('updated', { ...site, revision: 3, intervalMinutes: 10 });
    await harness.untilApplied(site.targetId, 3);
    await harness.publishState('updated', { ...site, revision: 2, intervalMinutes: 1 });
    await harness.untilProcessed('scheduler-target-updated', 2);
    await harness.takeChecks();

    await runFor(clock, dispatcher, 20 * MINUTE);
    const checks = (await harness.takeChecks()).filter((check) => check.targetId === site.targetId);
    expect(checks).toHaveLength(2);
    for (const check of checks)
      expect((check.dueAt?.getTime() ?? 0) % (10 * MINUTE)).toBe(
        phaseOf(site.targetId, site.userId, 10 * MINUTE),
      );
  });

  it('a deleted site loses its schedule, and a late event does not bring it back', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site);
    await harness.untilApplied(site.targetId, 1);
    await harness.publishDeleted({ ...site, revision: 2 });
    await harness.untilApplied(site.targetId, undefined);
    const resumedBefore = await processedCount(harness, 'scheduler-target-resumed');
    await harness.publishState('resumed', { ...site, revision: 2 });
    await harness.untilProcessed('scheduler-target-resumed', resumedBefore + 1);
    await harness.takeChecks();

    await runFor(clock, dispatcher, 2 * MINUTE);
    expect((await harness.takeChecks()).filter((check) => check.targetId === site.targetId)).toHaveLength(0);
    const { rows } = await harness.db.query('SELECT 1 FROM scheduler.schedules WHERE target_id = $1', [
      site.targetId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("the trial ending stops every site of that account changed before it, and no one else's", async () => {
    const userId = `user-held-${Date.now()}`;
    const [held, resumedLater, other] = [newSite(1, userId), newSite(1, userId), newSite(1)];
    const endedAt = new Date(Date.now() - 60_000);
    for (const site of [held, resumedLater, other]) {
      await harness.publishState('registered', site, new Date(endedAt.getTime() - 60_000));
    }
    await harness.publishState(
      'resumed',
      { ...resumedLater, revision: 2 },
      new Date(endedAt.getTime() + 1_000),
    );
    await harness.untilApplied(resumedLater.targetId, 2);
    await harness.untilApplied(held.targetId, 1);
    await harness.untilApplied(other.targetId, 1);
    await harness.publishTrialEnded(userId, endedAt);
    await harness.untilProcessed('scheduler-trial-ended', 1);
    await harness.takeChecks();

    await runFor(clock, dispatcher, MINUTE);
    const dispatched = new Set((await harness.takeChecks()).map((check) => check.targetId));
    expect(dispatched.has(held.targetId)).toBe(false);
    expect(dispatched.has(resumedLater.targetId)).toBe(true);
    expect(dispatched.has(other.targetId)).toBe(true);
  });
});

async function processedCount(harness: SchedulerHarness, consumer: string): Promise<number> {
  const { rows } = await harness.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM scheduler.processed_events WHERE consumer = $1',
    [consumer],
  );
  return rows[0]?.n ?? 0;
}
