import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { phaseOf } from '../src/domain/phase.ts';
import {
  ManualClock,
  MINUTE,
  newSite,
  type SchedulerHarness,
  type Site,
  startSchedulerHarness,
} from './scheduler-harness.ts';

const TICK = 250;

/**
 * A target that starts monitoring is checked at once and a minute later, then at its phase
 * (ADR 0020, docs/product.md#checks), so a new user on a 10-minute plan sees the first update of
 * a page that changes by the minute within about two minutes, not up to ten.
 */
describe('start checks (PostgreSQL + JetStream)', () => {
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

  /** Moves the clock on tick by tick for `ms`, as the loop would. */
  async function runFor(ms: number, step = TICK): Promise<void> {
    for (let passed = 0; passed < ms; passed += step) {
      clock.advance(Math.min(step, ms - passed));
      await dispatcher.tick();
    }
  }

  /** The due times of the site's checks dispatched since the last call. */
  async function dueTimesOf(site: Site): Promise<number[]> {
    return (await harness.takeChecks())
      .filter((check) => check.targetId === site.targetId)
      .map((check) => check.dueAt?.getTime() ?? 0);
  }

  /** The site's phase due times in (from, to]. */
  function phaseDueTimes(site: Site, from: number, to: number): number[] {
    const interval = site.intervalMinutes * MINUTE;
    const phase = phaseOf(site.targetId, site.userId, interval);
    const times: number[] = [];
    for (let due = from - (from % interval) + phase; due <= to; due += interval)
      if (due > from) times.push(due);
    return times;
  }

  /**
   * Publishes the state at the clock's now and lets the event arrive a tick late, as the outbox
   * relays it. The clock first moves half an interval away from the site's phase, so a start check
   * and a phase check never share a tick (a site waits for one check at a time, the newest).
   */
  async function startNow(kind: 'registered' | 'resumed' | 'updated', site: Site): Promise<number> {
    const interval = site.intervalMinutes * MINUTE;
    const away = (phaseOf(site.targetId, site.userId, interval) + interval / 2) % interval;
    clock.advance((away - (clock.now().getTime() % interval) + interval) % interval);
    await dispatcher.tick();
    await harness.takeChecks();
    const startedAt = clock.now().getTime();
    await runFor(TICK);
    await harness.publishState(kind, site, new Date(startedAt));
    await harness.untilApplied(site.targetId, site.revision);
    return startedAt;
  }

  it('checks a new 10-minute target at once and a minute later, then at its phase', async () => {
    const site = newSite(10);
    const startedAt = await startNow('registered', site);

    await runFor(TICK);
    expect(await dueTimesOf(site)).toEqual([startedAt]);

    const until = startedAt + 25 * MINUTE;
    await runFor(until - clock.now().getTime(), 5_000);
    const expected = [startedAt + MINUTE, ...phaseDueTimes(site, startedAt, until)].sort();
    expect((await dueTimesOf(site)).sort()).toEqual(expected);
  });

  it('checks a new 1-minute target at once, then at its phase only', async () => {
    const site = newSite(1);
    const startedAt = await startNow('registered', site);
    await runFor(TICK);
    expect(await dueTimesOf(site)).toEqual([startedAt]);
    await runFor(3 * MINUTE, 5_000);
    expect((await dueTimesOf(site)).sort()).toEqual(
      phaseDueTimes(site, startedAt, clock.now().getTime()).sort(),
    );
  });

  it('starts a resumed target again, but not one saved paused or one merely edited while monitoring', async () => {
    const site = { ...newSite(60), paused: true };
    await startNow('registered', site);
    await runFor(2 * MINUTE, 5_000);
    expect(await dueTimesOf(site)).toEqual([]);

    const resumedAt = await startNow('resumed', { ...site, paused: false, revision: 2 });
    await runFor(2 * MINUTE, 5_000);
    const now = clock.now().getTime();
    expect((await dueTimesOf(site)).sort()).toEqual(
      [resumedAt, resumedAt + MINUTE, ...phaseDueTimes(site, resumedAt, now)].sort(),
    );

    const editedAt = await startNow('updated', { ...site, paused: false, revision: 3 });
    await runFor(2 * MINUTE, 5_000);
    expect(await dueTimesOf(site)).toEqual(phaseDueTimes(site, editedAt - TICK, clock.now().getTime()));
  });

  it('sends each start check once, whichever replica or restarted scheduler holds it', async () => {
    const site = newSite(10);
    const startedAt = await startNow('registered', site);
    const replica = harness.dispatcher(clock);
    await replica.tick();
    clock.advance(TICK);
    await dispatcher.tick();
    await replica.tick();
    await runFor(MINUTE);
    await replica.tick();
    const dueTimes = await dueTimesOf(site);
    expect(dueTimes.filter((due) => due === startedAt)).toHaveLength(1);
    expect(dueTimes.filter((due) => due === startedAt + MINUTE)).toHaveLength(1);
    await replica.stop();
  });

  it('leaves a start that reached the schedule over two minutes late to the phase', async () => {
    const site = newSite(10);
    await harness.takeChecks();
    const startedAt = clock.now().getTime() - 3 * MINUTE;
    await harness.publishState('registered', site, new Date(startedAt));
    await harness.untilApplied(site.targetId, 1);
    await runFor(MINUTE, 5_000);
    expect(await dueTimesOf(site)).toEqual(
      phaseDueTimes(site, clock.now().getTime() - MINUTE, clock.now().getTime()),
    );
  });
});
