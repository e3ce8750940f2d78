import { checksEventsV1, type targetsEventsV1 } from '@mimamori/contracts';
import { MINUTE_MS, phaseOf } from './phase.ts';

/** A site's schedule as a targets.* event states it. */
export interface ScheduleState {
  targetId: string;
  userId: string;
  intervalMs: number;
  phaseMs: number;
  active: boolean;
  revision: number;
  changedAt: Date;
  checkTemplate: Uint8Array;
}

/**
 * The schedule a site's state event asks for; the check template travels as its encoded bytes.
 * `minuteMs` is the product's minute in real time (shorter only in test runs).
 */
export function scheduleStateOf(
  event: targetsEventsV1.TargetStateChanged,
  minuteMs: number = MINUTE_MS,
): ScheduleState {
  // The target service refuses less than a minute; a bad event must not stall the consumer.
  const intervalMs = Math.max(event.intervalMinutes, 1) * minuteMs;
  return {
    targetId: event.targetId,
    userId: event.userId,
    intervalMs,
    phaseMs: phaseOf(event.targetId, event.userId, intervalMs),
    active: !event.paused,
    revision: event.revision,
    changedAt: event.occurredAt ?? new Date(0),
    checkTemplate: checksEventsV1.RunCheck.encode(
      event.check ?? checksEventsV1.RunCheck.fromPartial({ targetId: event.targetId, userId: event.userId }),
    ).finish(),
  };
}
