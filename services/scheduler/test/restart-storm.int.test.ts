import { randomUUID } from 'node:crypto';
import { checksEventsV1 } from '@mimamori/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../src/dispatch/dispatcher.ts';
import { phaseOf } from '../src/domain/phase.ts';
import { ManualClock, MINUTE, type SchedulerHarness, startSchedulerHarness } from './scheduler-harness.ts';

const SITES = 10_000;
// 10,000 one-minute sites are 167 a second on average; the busiest seconds of their phases hold
// more, so a ceiling of 180 binds and must still fit every site into the interval.
const CEILING = 180;
/** The account of a site: ids share one in 65,536, so most sites here are an account's only one. */
const userOf = (id: string) => `user-${id.slice(0, 4)}`;

describe('no restart storm: 10,000 overdue sites after a full stop (PostgreSQL + JetStream)', () => {
  let harness: SchedulerHarness;
  const ids = Array.from({ length: SITES }, () => randomUUID());

  beforeAll(async () => {
    harness = await startSchedulerHarness();
    // The host migrates the schema; the rows are then written as targets.* would leave them.
    await harness.startScheduler();
    const phases = ids.map((id) => phaseOf(id, userOf(id), MINUTE));
    const templates = ids.map((id) =>
      Buffer.from(
        checksEventsV1.RunCheck.encode(
          checksEventsV1.RunCheck.fromPartial({ targetId: id, url: `https://example.test/${id}` }),
        ).finish(),
      ),
    );
    await harness.db.query(
      `INSERT INTO scheduler.schedules
         (target_id, user_id, interval_ms, phase_ms, active, revision, changed_at, check_template)
       SELECT id, user_id, ${MINUTE}, phase, true, 1, now(), template
         FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bytea[]) AS t(id, user_id, phase, template)`,
      [ids, ids.map(userOf), phases, templates],
    );
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('resumes spread over one interval, at most the ceiling a second, each overdue site once', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0, 123));
    const dispatched: { targetId: string; dueAt: number; second: number }[] = [];
    const dispatcher = () =>
      createDispatcher({
        db: harness.db,
        bus: harness.bus,
        clock,
        logger: harness.logger,
        tickMs: 3_600_000,
        publishConcurrency: 64,
        ceilingPerSecond: CEILING,
        onDispatched: ({ checkId, dueAt, publishedAt }) =>
          dispatched.push({
            // The check id is `<target id>:<due time>`; these target ids hold no colon.
            targetId: checkId.split(':')[0] as string,
            dueAt: dueAt.getTime(),
            second: Math.floor(publishedAt.getTime() / 1_000),
          }),
      });

    // Running, then every service stops for half an hour: every site misses 30 due times.
    const before = dispatcher();
    await before.tick();
    clock.advance(250);
    await before.tick();
    await before.stop();
    clock.advance(30 * MINUTE);
    dispatched.length = 0;

    // Restarted: ticks every 250 ms through one interval, then until nothing waits.
    const after = dispatcher();
    await after.tick();
    const restartedAt = clock.now().getTime();
    const intervalEnd = restartedAt + MINUTE;
    while (clock.now().getTime() < intervalEnd) {
      clock.advance(250);
      await after.tick();
    }
    const interval = dispatched.filter((check) => check.dueAt <= intervalEnd);
    // Checks due in the interval still waiting at its end go out in the next seconds.
    let extraTicks = 0;
    while (after.waiting() > 0 && extraTicks < 40) {
      clock.advance(250);
      await after.tick();
      extraTicks++;
    }
    await after.stop();

    const resumed = dispatched.filter((check) => check.dueAt > restartedAt && check.dueAt <= intervalEnd);
    const perSecond = new Map<number, number>();
    for (const check of dispatched) perSecond.set(check.second, (perSecond.get(check.second) ?? 0) + 1);
    const duePerSecond = new Map<number, number>();
    for (const check of resumed) {
      const second = Math.floor(check.dueAt / 1_000);
      duePerSecond.set(second, (duePerSecond.get(second) ?? 0) + 1);
    }
    const maxPerSecond = Math.max(...perSecond.values());
    const lastSecond = Math.max(...resumed.map((check) => check.second));
    console.log(
      `restart with ${SITES} overdue sites: ${resumed.length} checks over ${perSecond.size} seconds, ` +
        `max ${maxPerSecond}/s published (ceiling ${CEILING}/s; busiest second of due phases ${Math.max(
          ...duePerSecond.values(),
        )}), ${interval.length} published within the interval, the last ${
          lastSecond - Math.floor(intervalEnd / 1_000)
        } s after it`,
    );

    expect(resumed).toHaveLength(SITES);
    expect(new Set(resumed.map((check) => check.targetId)).size).toBe(SITES);
    expect(new Set(resumed.map((check) => check.targetId))).toEqual(new Set(ids));
    expect(maxPerSecond).toBeLessThanOrEqual(CEILING);
    // Spread over the interval, not sent at once: nearly every second of it carries checks.
    expect(
      [...perSecond.keys()].filter((second) => second * 1_000 < intervalEnd).length,
    ).toBeGreaterThanOrEqual(55);
    // Nothing of the missed half hour is made up.
    expect(dispatched.every((check) => check.dueAt > restartedAt)).toBe(true);
    expect(after.waiting()).toBe(0);
  }, 300_000);
});
