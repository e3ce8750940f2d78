import type { BusMessage } from '@mimamori/bus';
import { checksEventsV1 } from '@mimamori/contracts';
import {
  accountCancelled,
  checkCompleted,
  targetDeleted,
  targetPaused,
  targetRegistered,
  trialEnded,
} from '@mimamori/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { accountConsumers } from '../src/events/account-consumers.ts';
import { checkResultConsumers } from '../src/events/check-result-consumers.ts';
import { targetConsumers } from '../src/events/target-consumers.ts';
import {
  ManualClock,
  MINUTE,
  newSite,
  type SchedulerHarness,
  startSchedulerHarness,
} from './scheduler-harness.ts';

/** One delivery of an event as the bus hands it to a handler. */
function delivery(subject: string, data: Uint8Array, msgId: string): BusMessage {
  return { subject, data, msgId, headers: {}, deliveryCount: 1, ack() {}, nak() {}, term() {}, working() {} };
}

describe('failing sites back off; every consumer takes a redelivery (PostgreSQL + JetStream)', () => {
  let harness: SchedulerHarness;
  let clock: ManualClock;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    harness = await startSchedulerHarness();
    await harness.startScheduler({ backoffMaxMs: 60 * MINUTE });
    clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
    dispatcher = harness.dispatcher(clock);
    await dispatcher.tick();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('consecutive errors double the wait between checks; a success restores every minute', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site);
    await harness.untilApplied(site.targetId, 1);
    await harness.takeChecks();

    const dispatched: number[] = [];
    // Each minute: the checks sent get their result (four errors, then successes).
    for (let minute = 0; minute < 30 && dispatched.length < 7; minute++) {
      for (let step = 0; step < 6; step++) {
        clock.advance(10_000);
        await dispatcher.tick();
      }
      for (const check of await harness.takeChecks()) {
        const dueAt = check.dueAt as Date;
        dispatched.push(dueAt.getTime());
        await harness.publishResult(site.targetId, dueAt, dispatched.length >= 5 ? 'no_change' : 'error');
        await harness.untilResultCounted(site.targetId, dueAt);
      }
    }
    const first = dispatched[0] as number;
    // Due every minute from `first`: 2 errors skip one due time, 3 skip three, 4 skip seven;
    // the success at +15 min brings back every minute.
    expect(dispatched.map((due) => (due - first) / MINUTE)).toEqual([0, 1, 3, 7, 15, 16, 17]);
  });

  it('a result delivered twice counts once; a success resets the count', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site);
    await harness.untilApplied(site.targetId, 1);
    const [entry] = checkResultConsumers(harness.db, harness.logger, 60 * MINUTE);
    const result = (dueAt: Date, outcome: string) =>
      delivery(
        checkCompleted.subject,
        checkCompleted.encode({
          eventId: `checked:${site.targetId}:${dueAt.toISOString()}`,
          checkId: `${site.targetId}:${dueAt.toISOString()}`,
          targetId: site.targetId,
          userId: site.userId,
          dueAt,
          completedAt: dueAt,
          outcome,
          errorCode: outcome === 'error' ? 'http_status' : '',
          errorDetail: '',
          updateId: '',
          errorAreaId: '',
        }),
        `checked:${site.targetId}:${dueAt.toISOString()}`,
      );
    const failures = async () => {
      const { rows } = await harness.db.query<{ failures: number; backoff: boolean }>(
        'SELECT failures, backoff_until IS NOT NULL AS backoff FROM scheduler.schedules WHERE target_id = $1',
        [site.targetId],
      );
      return rows[0];
    };
    const first = new Date(Date.UTC(2026, 0, 2, 0, 0));
    const second = new Date(first.getTime() + MINUTE);
    await entry?.handler(result(first, 'error'));
    await entry?.handler(result(first, 'error'));
    expect(await failures()).toEqual({ failures: 1, backoff: false });
    await entry?.handler(result(second, 'error'));
    await entry?.handler(result(second, 'error'));
    expect(await failures()).toEqual({ failures: 2, backoff: true });
    await entry?.handler(result(new Date(second.getTime() + MINUTE), 'update'));
    expect(await failures()).toEqual({ failures: 0, backoff: false });
  });

  it('site and account events delivered twice, or late, leave the newest state', async () => {
    const consumers = [
      ...targetConsumers(harness.db, harness.logger, MINUTE),
      ...accountConsumers(harness.db, harness.logger),
    ];
    const handlerOf = (subject: string) => {
      const entry = consumers.find((candidate) => candidate.subject === subject);
      if (!entry) throw new Error(`no consumer for ${subject}`);
      return entry.handler;
    };
    const userId = `user-twice-${Date.now()}`;
    const site = newSite(1, userId);
    const state = (revision: number, paused: boolean, occurredAt: Date) => ({
      eventId: `e:${site.targetId}:${revision}`,
      targetId: site.targetId,
      userId,
      version: 2,
      revision,
      intervalMinutes: 1,
      paused,
      pausedReason: paused ? 'user' : '',
      check: checksEventsV1.RunCheck.fromPartial({
        targetId: site.targetId,
        url: 'https://example.test/',
      }),
      occurredAt,
    });
    const row = async () => {
      const { rows } = await harness.db.query<{ revision: string; active: boolean }>(
        'SELECT revision, active FROM scheduler.schedules WHERE target_id = $1',
        [site.targetId],
      );
      return rows[0] ? { revision: Number(rows[0].revision), active: rows[0].active } : undefined;
    };
    const t0 = new Date(Date.UTC(2026, 0, 3));
    const registered = delivery(targetRegistered.subject, targetRegistered.encode(state(1, false, t0)), 'r1');
    const paused = delivery(targetPaused.subject, targetPaused.encode(state(2, true, t0)), 'p2');
    await handlerOf(targetRegistered.subject)(registered);
    await handlerOf(targetPaused.subject)(paused);
    await handlerOf(targetPaused.subject)(paused);
    // The registration again under another delivery id (as a replay would): older, ignored.
    await handlerOf(targetRegistered.subject)({ ...registered, msgId: 'r1-replayed' });
    expect(await row()).toEqual({ revision: 2, active: false });

    const resumed = delivery(
      'targets.resumed',
      targetRegistered.encode(state(3, false, new Date(t0.getTime() + 2_000))),
      'u3',
    );
    await handlerOf('targets.resumed')(resumed);
    const ended = delivery(
      trialEnded.subject,
      trialEnded.encode({
        eventId: 'te',
        userId,
        endedAt: new Date(t0.getTime() + 1_000),
        deleteAt: undefined,
      }),
      'te',
    );
    await handlerOf(trialEnded.subject)(ended);
    await handlerOf(trialEnded.subject)(ended);
    // Resumed after the hold began: it stays running.
    expect(await row()).toEqual({ revision: 3, active: true });

    const deleted = delivery(
      targetDeleted.subject,
      targetDeleted.encode({ eventId: 'd', targetId: site.targetId, userId, revision: 4, occurredAt: t0 }),
      'd4',
    );
    await handlerOf(targetDeleted.subject)(deleted);
    await handlerOf(targetDeleted.subject)(deleted);
    await handlerOf('targets.updated')({ ...resumed, subject: 'targets.updated', msgId: 'late-update' });
    expect(await row()).toBeUndefined();

    const cancelledUser = `user-cancelled-${Date.now()}`;
    const gone = newSite(1, cancelledUser);
    await handlerOf(targetRegistered.subject)(
      delivery(
        targetRegistered.subject,
        targetRegistered.encode({ ...state(1, false, t0), targetId: gone.targetId, userId: cancelledUser }),
        'g1',
      ),
    );
    const cancelled = delivery(
      'accounts.cancelled',
      accountCancelled.encode({
        eventId: 'c',
        userId: cancelledUser,
        cancelledAt: new Date(t0.getTime() + 1_000),
        reason: 'trial_expired',
      }),
      'c',
    );
    await handlerOf('accounts.cancelled')(cancelled);
    await handlerOf('accounts.cancelled')(cancelled);
    const { rows } = await harness.db.query('SELECT 1 FROM scheduler.schedules WHERE user_id = $1', [
      cancelledUser,
    ]);
    expect(rows).toHaveLength(0);
  });
});
