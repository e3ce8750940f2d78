import type { EventBus } from '@mimamori/bus';
import { checksEventsV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { runCheck } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { checkIdFor } from '../domain/check-id.ts';
import type { Clock } from '../domain/clock.ts';
import { dueTimeIn, MIN_INTERVAL_MS, phaseRanges } from '../domain/phase.ts';
import {
  activeIntervals,
  type DueSchedule,
  schedulesExist,
  schedulesInPhases,
} from '../store/schedule-store.ts';

export interface DispatcherOptions {
  db: Db;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Time between ticks; a due check waits at most about this long. */
  tickMs: number;
  /** checks.run publishes awaiting JetStream's ack at once. */
  publishConcurrency: number;
  /** Told of every check published, with the time its ack arrived (the bench measures lag). */
  onDispatched?: (check: { checkId: string; dueAt: Date; publishedAt: Date }) => void;
}

export interface Dispatcher {
  start(): void;
  /** Stops ticking; a tick in flight finishes first. */
  stop(): Promise<void>;
  /** Dispatches what fell due since the last tick; returns how many checks were published. */
  tick(): Promise<number>;
  /** Dispatches every check due in (from, to]; the window must be shorter than a minute. */
  dispatchWindow(from: Date, to: Date): Promise<number>;
}

/**
 * Publishes checks.run for every site due since the previous tick. Due times follow from each
 * site's fixed phase, so a tick is a read of the due index and keeps no per-site state: any
 * number of replicas run it, and JetStream drops the copies by message id. The window starts
 * where the last successful tick ended (a failed tick is retried whole, at most a minute of it),
 * and at start it begins now: due times missed while no scheduler ran are not made up, so a
 * restart sends the next due checks, not everything at once.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { db, bus, clock, logger, tickMs, publishConcurrency, onDispatched } = options;
  let cursor: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let inFlight: Promise<unknown> = Promise.resolve();

  async function publishDue(from: number, intervalMs: number, due: DueSchedule[]): Promise<number> {
    let published = 0;
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const schedule = due[next++] as DueSchedule;
        const dueAt = new Date(dueTimeIn(from, intervalMs, schedule.phaseMs));
        if (schedule.backoffUntil && schedule.backoffUntil.getTime() > dueAt.getTime()) continue;
        const checkId = checkIdFor(schedule.targetId, dueAt);
        const check = {
          ...checksEventsV1.RunCheck.decode(schedule.checkTemplate),
          checkId,
          dueAt,
          ...(schedule.sealedSessionState ? { sealedSessionState: schedule.sealedSessionState } : {}),
          ...(schedule.areasDigest ? { previousAreasDigest: schedule.areasDigest } : {}),
        };
        await bus.publish(runCheck.subject, runCheck.encode(check), { msgId: checkId });
        published++;
        onDispatched?.({ checkId, dueAt, publishedAt: clock.now() });
      }
    };
    await Promise.all(Array.from({ length: Math.min(publishConcurrency, due.length) }, worker));
    return published;
  }

  async function dispatchWindow(from: Date, to: Date): Promise<number> {
    const fromMs = from.getTime();
    const toMs = to.getTime();
    let published = 0;
    for (const intervalMs of await activeIntervals(db)) {
      for (const range of phaseRanges(fromMs, toMs, intervalMs)) {
        const due = await schedulesInPhases(db, intervalMs, range.low, range.high);
        published += await publishDue(fromMs, intervalMs, due);
      }
    }
    return published;
  }

  async function tick(): Promise<number> {
    const now = clock.now().getTime();
    if (cursor === undefined) {
      if (!(await schedulesExist(db))) return 0;
      cursor = now;
      return 0;
    }
    if (now <= cursor) return 0;
    const from = Math.max(cursor, now - (MIN_INTERVAL_MS - 1));
    const published = await dispatchWindow(new Date(from), new Date(now));
    cursor = now;
    if (published > 0)
      logger.debug({ published, from: new Date(from), to: new Date(now) }, 'checks dispatched');
    return published;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = tick()
        .catch((error: unknown) => logger.error({ err: error }, 'dispatch tick failed; retried next tick'))
        .finally(schedule);
    }, tickMs);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
    tick,
    dispatchWindow,
  };
}
