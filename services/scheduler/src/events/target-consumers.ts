import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import {
  streams,
  targetDeleted,
  targetPaused,
  targetRegistered,
  targetResumed,
  targetUpdated,
} from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { scheduleStateOf } from '../domain/schedule-state.ts';
import { SCHEDULER_SCHEMA } from '../store/migrations.ts';
import { removeSchedule, saveSchedule } from '../store/schedule-store.ts';

type StateEvent = typeof targetRegistered;

/**
 * The site events the schedule follows. Each carries the site's whole state with its revision,
 * so every state event is handled alike: the newest revision wins whatever the order of
 * arrival, and a deleted site stays deleted.
 */
/** `minuteMs`: the product's minute in real time (shorter only in test runs). */
export function targetConsumers(db: Db, logger: Logger, minuteMs: number): CatalogEntry[] {
  const stateEntry = (type: StateEvent, durable: string): CatalogEntry => ({
    stream: streams.targets.name,
    durable,
    subject: type.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    handler: idempotent(db, SCHEDULER_SCHEMA, durable, async (message, tx) => {
      const event = type.decode(message.data);
      const applied = await saveSchedule(tx, scheduleStateOf(event, minuteMs));
      logger.debug(
        { targetId: event.targetId, revision: event.revision, applied },
        `${type.subject} applied`,
      );
    }),
  });
  return [
    stateEntry(targetRegistered, 'scheduler-target-registered'),
    stateEntry(targetUpdated, 'scheduler-target-updated'),
    stateEntry(targetPaused, 'scheduler-target-paused'),
    stateEntry(targetResumed, 'scheduler-target-resumed'),
    deletedEntry(db, logger),
  ];
}

function deletedEntry(db: Db, logger: Logger): CatalogEntry {
  const type = targetDeleted;
  const durable = 'scheduler-target-deleted';
  return {
    stream: streams.targets.name,
    durable,
    subject: type.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    handler: idempotent(db, SCHEDULER_SCHEMA, durable, async (message, tx) => {
      const { targetId, revision } = type.decode(message.data);
      await removeSchedule(tx, targetId, Number(revision));
      logger.debug({ targetId }, 'schedule removed');
    }),
  };
}
