import type { EventBus } from '@mimamori/bus';
import { checksEventsV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { runCheck } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { checkIdFor } from '../domain/check-id.ts';
import type { Clock } from '../domain/clock.ts';
import { dueTimeIn, MINUTE_MS, phaseRanges } from '../domain/phase.ts';
import { startChecksIn } from '../domain/start-checks.ts';
import {
  activeIntervals,
  type DueSchedule,
  type StartedSchedule,
  schedulesExist,
  schedulesInPhases,
  schedulesStartedIn,
} from '../store/schedule-store.ts';

export interface DispatcherOptions {
  db: Db;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Time between ticks; a due check waits at most about this long. */
  tickMs: number;
  /** The product's minute in real time, the shortest interval (60,000 ms unless told; shorter only in test runs). */
  minuteMs?: number;
  /** checks.run publishes awaiting JetStream's ack at once. */
  publishConcurrency: number;
  /**
   * The most checks.run published in one second of the clock; what falls due beyond it waits for
   * the next seconds (none when unset: the bench measures the unbounded drain).
   */
  ceilingPerSecond?: number;
  /** Told of every check published, with the time its ack arrived (the bench measures lag). */
  onDispatched?: (check: { checkId: string; dueAt: Date; publishedAt: Date }) => void;
}

export interface Dispatcher {
  start(): void;
  /** Stops ticking; a tick in flight finishes first. */
  stop(): Promise<void>;
  /** Dispatches what fell due since the last tick; returns how many checks were published. */
  tick(): Promise<number>;
  /** Dispatches every check due in (from, to]; the window must be shorter than the shortest interval. */
  dispatchWindow(from: Date, to: Date): Promise<number>;
  /** Due checks held back by the ceiling, waiting for the next seconds. */
  waiting(): number;
}

/** A due check read from the schedule, waiting to be published. */
interface DueCheck {
  checkId: string;
  dueAt: Date;
  schedule: DueSchedule;
}

/**
 * Publishes checks.run for every site due since the previous tick. Due times follow from each
 * site's fixed phase, so a tick is a read of the due index and keeps no per-site state: any
 * number of replicas run it, and JetStream drops the copies by message id. The window starts
 * where the last successful tick ended (a failed tick is retried whole, at most a minute of it),
 * and at start it begins now: due times missed while no scheduler ran are not made up, so a
 * restart sends the next due checks, not everything at once.
 *
 * The ceiling bounds the publishes per second of the clock: due checks past it wait, oldest
 * first, and go out in the following seconds under their own due time's id (so a duplicate from
 * a replica is still dropped). A site waits at most once: a newer due time replaces its waiting
 * one, so an overload delays checks but never piles them up.
 *
 * A site that started monitoring also gets its start checks (ADR 0020), at times that follow from
 * its start as due times follow from its phase. Its start usually reaches the schedule after the
 * window that held it, so each tick looks a minute further back for them and remembers which it
 * already held; a restart or another replica sends them again under the same id, and JetStream
 * drops the copy.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { db, bus, clock, logger, tickMs, publishConcurrency, onDispatched, ceilingPerSecond } = options;
  const minuteMs = options.minuteMs ?? MINUTE_MS;
  let cursor: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let inFlight: Promise<unknown> = Promise.resolve();
  // Insertion order is due order: a Map keeps a replaced entry in its first place.
  const waiting = new Map<string, DueCheck>();
  let second = Number.NaN;
  let sentThisSecond = 0;
  /** Start checks already held, by check id, with their due time (kept while within the lookback). */
  const startsHeld = new Map<string, number>();

  function hold(intervalMs: number, from: number, due: DueSchedule[]): void {
    for (const schedule of due) {
      const dueAt = new Date(dueTimeIn(from, intervalMs, schedule.phaseMs));
      if (schedule.backoffUntil && schedule.backoffUntil.getTime() > dueAt.getTime()) continue;
      const held = waiting.get(schedule.targetId);
      if (held && held.dueAt.getTime() >= dueAt.getTime()) continue;
      waiting.set(schedule.targetId, { checkId: checkIdFor(schedule.targetId, dueAt), dueAt, schedule });
    }
  }

  function holdStarts(fromMs: number, toMs: number, started: StartedSchedule[]): void {
    for (const [checkId, dueMs] of startsHeld) if (dueMs <= fromMs) startsHeld.delete(checkId);
    for (const schedule of started) {
      for (const dueMs of startChecksIn(
        schedule.startedAt.getTime(),
        schedule.intervalMs,
        fromMs,
        toMs,
        minuteMs,
      )) {
        const dueAt = new Date(dueMs);
        const checkId = checkIdFor(schedule.targetId, dueAt);
        if (startsHeld.has(checkId)) continue;
        startsHeld.set(checkId, dueMs);
        // A start is the user's own doing, so a backoff from failures before it does not hold it.
        const held = waiting.get(schedule.targetId);
        if (held && held.dueAt.getTime() >= dueMs) continue;
        waiting.set(schedule.targetId, { checkId, dueAt, schedule });
      }
    }
  }

  function budget(): number {
    if (ceilingPerSecond === undefined) return waiting.size;
    const now = Math.floor(clock.now().getTime() / 1_000);
    if (now !== second) {
      second = now;
      sentThisSecond = 0;
    }
    return Math.max(0, Math.min(waiting.size, ceilingPerSecond - sentThisSecond));
  }

  /** Publishes the waiting checks the ceiling allows this second; a failed one waits again. */
  async function publishWaiting(): Promise<number> {
    const limit = budget();
    const batch: DueCheck[] = [];
    for (const check of waiting.values()) {
      if (batch.length >= limit) break;
      batch.push(check);
    }
    for (const check of batch) waiting.delete(check.schedule.targetId);
    sentThisSecond += batch.length;
    let published = 0;
    let next = 0;
    const failures: unknown[] = [];
    const worker = async () => {
      while (next < batch.length) {
        const due = batch[next++] as DueCheck;
        const { checkId, dueAt, schedule } = due;
        try {
          const check = {
            ...checksEventsV1.RunCheck.decode(schedule.checkTemplate),
            checkId,
            dueAt,
            ...(schedule.sealedSessionState ? { sealedSessionState: schedule.sealedSessionState } : {}),
            ...(schedule.areasDigest ? { previousAreasDigest: schedule.areasDigest } : {}),
            ...(schedule.sealedRevalidationState
              ? { sealedRevalidationState: schedule.sealedRevalidationState }
              : {}),
          };
          await bus.publish(runCheck.subject, runCheck.encode(check), { msgId: checkId });
        } catch (error) {
          failures.push(error);
          if (!waiting.has(schedule.targetId)) waiting.set(schedule.targetId, due);
          continue;
        }
        published++;
        onDispatched?.({ checkId, dueAt, publishedAt: clock.now() });
      }
    };
    await Promise.all(Array.from({ length: Math.min(publishConcurrency, batch.length) }, worker));
    if (failures.length > 0) throw failures[0];
    return published;
  }

  async function dispatchWindow(from: Date, to: Date): Promise<number> {
    const fromMs = from.getTime();
    const toMs = to.getTime();
    for (const intervalMs of await activeIntervals(db)) {
      for (const range of phaseRanges(fromMs, toMs, intervalMs)) {
        hold(intervalMs, fromMs, await schedulesInPhases(db, intervalMs, range.low, range.high));
      }
    }
    // A start reaches the schedule through the target service's outbox, usually after the window
    // that held its time; a minute covers a slow relay, and a start check older than that is left
    // to the phase. A start's last check comes a minute after it, so starts that long before count.
    const startsFrom = fromMs - minuteMs;
    const started = await schedulesStartedIn(db, new Date(startsFrom - minuteMs), to);
    holdStarts(startsFrom, toMs, started);
    return publishWaiting();
  }

  async function tick(): Promise<number> {
    const now = clock.now().getTime();
    if (cursor === undefined) {
      if (!(await schedulesExist(db))) return 0;
      cursor = now;
      return 0;
    }
    if (now <= cursor) return publishWaiting();
    const from = Math.max(cursor, now - (minuteMs - 1));
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
    waiting: () => waiting.size,
  };
}
