import type { BlobStore } from '@mimamori/blob-store';
import { type CatalogEntry, type EventBus, writeEvent } from '@mimamori/bus';
import type { checksEventsV1, updatesEventsV1 } from '@mimamori/contracts';
import type { Db, Sql } from '@mimamori/db';
import { checkCompleted, snapshotCaptured, streams, updateDetected } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { type CapturedArea, type Judgement, judgeCheck } from '../domain/judge-check.ts';
import { type Highlight, screenshotPair } from '../domain/screenshot-pair.ts';
import { updateIdFor } from '../domain/update-id.ts';
import { type WatchSettings, watchSettingsOf } from '../domain/watch-settings.ts';
import { saveHistoryLimits } from '../store/history-retention.ts';
import { readJudging } from '../store/judging-store.ts';
import { DIFF_SCHEMA } from '../store/migrations.ts';
import {
  type CheckResultRow,
  recordCheckResult,
  recordedCheckResult,
  recordUpdate,
} from '../store/result-store.ts';
import {
  MAX_PAST_VERSIONS,
  newestScreenshots,
  pruneVersions,
  recordVersions,
} from '../store/version-store.ts';
import { deleteBlobs } from './blobs.ts';

export interface SnapshotDeps {
  blobs: BlobStore;
  /** checks.completed of an unchanged check goes straight to the bus, not through the outbox (ADR 0032). */
  bus: Pick<EventBus, 'publish'>;
  logger: Logger;
  now: () => Date;
  /** Snapshots judged at once. */
  concurrency: number;
}

/**
 * Judges each snapshot once per check, in one transaction, with the watch settings the check
 * carried (ADR 0008). The check's result row is its own record of having been judged (the
 * snapshot's message id is the check id), so no processed_events row is written. An unchanged
 * check's checks.completed is published after that transaction committed and before the snapshot
 * is acknowledged, rather than through the outbox (ADR 0032): a crash in between redelivers the
 * snapshot, which finds the result recorded and publishes the same event again under the same
 * message id. Blobs nothing refers to any more are deleted only after the commit.
 */
export function snapshotCapturedEntry(db: Db, deps: SnapshotDeps): CatalogEntry {
  const durable = 'diff-snapshots-captured';
  return {
    stream: streams.snapshots.name,
    durable,
    subject: snapshotCaptured.subject,
    maxDeliver: 10,
    ackWaitMs: 60_000,
    concurrency: deps.concurrency,
    handler: async (message) => {
      const snapshot = snapshotCaptured.decode(message.data);
      const recorded = await db.transaction((tx) => recordCheck(tx, snapshot, deps));
      if (recorded.completed) {
        await deps.bus.publish(checkCompleted.subject, checkCompleted.encode(recorded.completed), {
          msgId: recorded.completed.eventId,
        });
      }
      await deleteBlobs(deps.blobs, deps.logger, recorded.unused);
    },
  };
}

/** What judging a snapshot left to do after its transaction: blobs to delete, an event to publish. */
interface Recorded {
  unused: string[];
  /** checks.completed of an unchanged check, published once the transaction committed. */
  completed?: updatesEventsV1.CheckCompleted;
}

// A check planned before watch settings travelled with checks (ADR 0008) cannot be judged.
const NO_SETTINGS = { code: 'invalid_job', detail: 'the check carried no watch settings' };

/**
 * Judges one snapshot in the caller's transaction: records the check's result, the area versions
 * and the update, and writes updates.detected (updates) and checks.completed (updates and errors)
 * to the outbox; an unchanged check's checks.completed is answered for the caller to publish.
 * Answers the snapshot's blobs nothing refers to any more.
 */
async function recordCheck(
  tx: Sql,
  snapshot: checksEventsV1.SnapshotCaptured,
  deps: SnapshotDeps,
): Promise<Recorded> {
  const written = snapshotBlobKeys(snapshot);
  // Checks of one site are judged one at a time, each against the versions the last one recorded
  // (and a check reported twice at once is seen as judged by the second).
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [snapshot.targetId]);
  const settings = snapshot.watch ? watchSettingsOf(snapshot.watch) : null;
  const state = await readJudging(tx, snapshot.checkId, snapshot.targetId, versionsRead(snapshot, settings));
  if (state.judged) {
    // A redelivery: an unchanged check's event may not have gone out before a crash, so it goes
    // again (JetStream drops the copy); the outbox holds the others'.
    const judged = await recordedCheckResult(tx, snapshot.checkId);
    return judged?.outcome === 'no_change'
      ? { unused: [], completed: completedEvent(judged) }
      : { unused: [] };
  }
  // The site was deleted after the check was sent: nothing of it is kept.
  if (state.forgotten) return { unused: written };
  if (snapshot.watch) {
    await saveHistoryLimits(
      tx,
      snapshot,
      { keepUpdates: snapshot.watch.keepUpdates, keepCheckDays: snapshot.watch.keepCheckDays },
      state.limits,
    );
  }
  const result: CheckResultRow = {
    checkId: snapshot.checkId,
    targetId: snapshot.targetId,
    userId: snapshot.userId,
    dueAt: snapshot.dueAt ?? null,
    completedAt: deps.now(),
    outcome: 'no_change',
    errorCode: '',
    errorDetail: '',
    updateId: null,
  };
  if (snapshot.error) {
    await finish(
      tx,
      {
        ...result,
        outcome: 'error',
        errorCode: snapshot.error.code,
        errorDetail: snapshot.error.detail,
      },
      snapshot.error.areaId,
    );
    return { unused: written };
  }
  if (!settings) {
    await finish(tx, {
      ...result,
      outcome: 'error',
      errorCode: NO_SETTINGS.code,
      errorDetail: NO_SETTINGS.detail,
    });
    return { unused: written };
  }

  const areas = await capturedAreas(snapshot, deps.blobs);
  const versions = state.versions;
  const judgement = judgeCheck(areas, settings, versions);
  if (judgement.outcome === 'error') {
    await finish(
      tx,
      {
        ...result,
        outcome: 'error',
        errorCode: judgement.errorCode,
        errorDetail: judgement.errorDetail,
      },
      judgement.errorAreaId,
    );
    return { unused: written };
  }
  const context = {
    targetId: snapshot.targetId,
    userId: snapshot.userId,
    checkId: snapshot.checkId,
    pageScreenshotBlobKey: snapshot.pageScreenshotBlobKey,
    recordedAt: result.completedAt,
  };
  if (judgement.outcome === 'no_change') {
    await recordVersions(tx, { ...context, updateId: null }, judgement.record);
    await recordCheckResult(tx, result);
    return { unused: unreferenced(written, snapshot, judgement), completed: completedEvent(result) };
  }

  const updateId = updateIdFor(snapshot.checkId);
  const choice = settings.screenshot ? await screenshotChoice(tx, snapshot, areas, judgement) : null;
  const images = await writeUpdateScreenshots(
    deps.blobs,
    deps.logger,
    `updates/${blobSegment(snapshot.targetId)}/${updateId}`,
    choice,
  );
  await recordVersions(tx, { ...context, updateId }, judgement.record);
  await recordUpdate(tx, {
    updateId,
    checkId: snapshot.checkId,
    targetId: snapshot.targetId,
    userId: snapshot.userId,
    notify: judgement.notify,
    matched: judgement.matched,
    areas: judgement.changes,
    beforeScreenshotBlobKey: images.before,
    afterScreenshotBlobKey: images.after,
    createdAt: result.completedAt,
  });
  await finish(tx, { ...result, outcome: 'update', updateId });
  await writeEvent(tx, DIFF_SCHEMA, {
    id: `update:${updateId}`,
    subject: updateDetected.subject,
    data: updateDetected.encode({
      eventId: `update:${updateId}`,
      updateId,
      checkId: snapshot.checkId,
      targetId: snapshot.targetId,
      userId: snapshot.userId,
      detectedAt: result.completedAt,
      notify: judgement.notify,
      matched: judgement.matched,
      areas: judgement.changes.map(({ rows: _rows, ...change }) => change),
      beforeScreenshotBlobKey: images.before,
      afterScreenshotBlobKey: images.after,
    }),
  });
  return {
    unused: [...unreferenced(written, snapshot, judgement), ...(await pruneVersions(tx, snapshot.targetId))],
  };
}

/**
 * Records an update's or an error's result with its checks.completed in the outbox, which keeps
 * them in order behind the update's own event. `errorAreaId` names the area a failed judgement
 * could not find (the failure alert names it).
 */
async function finish(tx: Sql, result: CheckResultRow, errorAreaId = ''): Promise<void> {
  await recordCheckResult(tx, result);
  await writeEvent(tx, DIFF_SCHEMA, {
    id: `checked:${result.checkId}`,
    subject: checkCompleted.subject,
    data: checkCompleted.encode(completedEvent(result, errorAreaId)),
  });
}

function completedEvent(result: CheckResultRow, errorAreaId = ''): updatesEventsV1.CheckCompleted {
  return {
    eventId: `checked:${result.checkId}`,
    checkId: result.checkId,
    targetId: result.targetId,
    userId: result.userId,
    ...(result.dueAt ? { dueAt: result.dueAt } : {}),
    completedAt: result.completedAt,
    outcome: result.outcome,
    errorCode: result.errorCode,
    errorDetail: result.errorDetail,
    updateId: result.updateId ?? '',
    errorAreaId,
  };
}

/**
 * How many recorded versions each of the snapshot's areas is compared with: the newest, or the
 * past updates 'exclude same as past' looks through. None without settings, which cannot be judged.
 */
function versionsRead(
  snapshot: checksEventsV1.SnapshotCaptured,
  settings: WatchSettings | null,
): { areaId: string; versions: number }[] {
  if (!settings || snapshot.error) return [];
  const optionsOf = new Map(settings.areas.map((area) => [area.areaId, area.options]));
  return snapshot.areas.map(({ areaId }) => {
    const past = optionsOf.get(areaId)?.excludeSameAsPast;
    return { areaId, versions: past?.enabled ? Math.min(Math.max(past.count, 1), MAX_PAST_VERSIONS) : 1 };
  });
}

/** The snapshot's areas, content that was too large for the event read from the blob store. */
async function capturedAreas(
  snapshot: checksEventsV1.SnapshotCaptured,
  blobs: BlobStore,
): Promise<CapturedArea[]> {
  return Promise.all(
    snapshot.areas.map(async (area) => ({
      areaId: area.areaId,
      found: area.found,
      html: area.htmlBlobKey ? await blobText(blobs, area.htmlBlobKey) : area.html,
      text: area.textBlobKey ? await blobText(blobs, area.textBlobKey) : area.text,
      screenshotBlobKey: area.screenshotBlobKey,
      ...(area.pageBox ? { pageBox: area.pageBox } : {}),
    })),
  );
}

async function blobText(blobs: BlobStore, key: string): Promise<string> {
  const blob = await blobs.get(key);
  // The crawler writes the blob before publishing the event, so a missing one is a lost blob:
  // retrying will not bring it back, and an empty area is reported as such by the engine.
  return blob ? Buffer.from(blob.data).toString('utf8') : '';
}

/** Every blob the crawler wrote for the snapshot. */
function snapshotBlobKeys(snapshot: checksEventsV1.SnapshotCaptured): string[] {
  const keys = snapshot.areas.flatMap((area) => [area.htmlBlobKey, area.textBlobKey, area.screenshotBlobKey]);
  keys.push(snapshot.pageScreenshotBlobKey);
  return keys.filter((key) => key !== '');
}

interface ScreenshotChoice {
  /** The screenshot recorded with the previous version (the before image); empty when none. */
  previousKey: string;
  currentKey: string;
  /** The changed elements on the current image; absent when they were not measured. */
  elements?: Highlight;
}

/**
 * The images to pair: the first changed area that has a screenshot now, else the page's, each
 * with the one recorded at the previous change.
 */
async function screenshotChoice(
  tx: Sql,
  snapshot: checksEventsV1.SnapshotCaptured,
  areas: readonly CapturedArea[],
  judgement: Extract<Judgement, { outcome: 'update' }>,
): Promise<ScreenshotChoice | null> {
  const previous = await newestScreenshots(tx, snapshot.targetId);
  for (const change of judgement.changes) {
    const current = areas.find((area) => area.areaId === change.areaId)?.screenshotBlobKey;
    // An area's picture is the element itself: the box is the whole picture.
    if (current)
      return { currentKey: current, previousKey: previous.areas.get(change.areaId) ?? '', elements: 'whole' };
  }
  if (snapshot.pageScreenshotBlobKey) {
    const changed = new Set(judgement.changes.map((change) => change.areaId));
    const elements = areas.flatMap((area) =>
      changed.has(area.areaId) && area.pageBox ? [area.pageBox] : [],
    );
    return {
      currentKey: snapshot.pageScreenshotBlobKey,
      previousKey: previous.page,
      ...(elements.length > 0 ? { elements } : {}),
    };
  }
  return null;
}

const NO_IMAGES = { before: '', after: '' };

/**
 * Writes the update's before/after images with the changed region boxed. The before image is the
 * one recorded at the previous change: the area looked like that until now. A failure here leaves
 * the update without images rather than losing it.
 */
async function writeUpdateScreenshots(
  blobs: BlobStore,
  logger: Logger,
  folder: string,
  choice: ScreenshotChoice | null,
): Promise<{ before: string; after: string }> {
  if (!choice) return NO_IMAGES;
  try {
    const current = await blobs.get(choice.currentKey);
    if (!current) return NO_IMAGES;
    const previous = choice.previousKey ? await blobs.get(choice.previousKey) : null;
    const pair = await screenshotPair(previous?.data ?? current.data, current.data, choice.elements);
    const keys = { before: previous ? `${folder}/before.webp` : '', after: `${folder}/after.webp` };
    if (keys.before) await blobs.put(keys.before, pair.before, { contentType: 'image/webp' });
    await blobs.put(keys.after, pair.after, { contentType: 'image/webp' });
    return keys;
  } catch (error) {
    logger.warn({ err: error, folder }, 'screenshot update failed: update kept without images');
    return NO_IMAGES;
  }
}

/** The snapshot's blobs that no recorded version keeps (area content is copied into the versions). */
function unreferenced(
  written: readonly string[],
  snapshot: checksEventsV1.SnapshotCaptured,
  judgement: Extract<Judgement, { outcome: 'no_change' | 'update' }>,
): string[] {
  const kept = new Set(judgement.record.map((version) => version.area.screenshotBlobKey));
  if (judgement.record.length > 0) kept.add(snapshot.pageScreenshotBlobKey);
  return written.filter((key) => !kept.has(key));
}

function blobSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^\.+/, '_') || '_';
}
