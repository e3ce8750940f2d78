import type { BlobStore } from '@mimamori/blob-store';
import { writeEvent } from '@mimamori/bus';
import type { checksEventsV1 } from '@mimamori/contracts';
import type { Sql } from '@mimamori/db';
import { changeDetected, checkCompleted } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { DIFF_SCHEMA } from '../store/migrations.ts';
import {
  type CheckResultRow,
  hasCheckResult,
  recordCheckResult,
  recordUpdate,
} from '../store/result-store.ts';
import { currentSettings } from '../store/settings-cache.ts';
import {
  newestScreenshots,
  pruneVersions,
  recordedVersions,
  recordVersions,
} from '../store/version-store.ts';
import { type CapturedArea, type Judgement, judgeCheck } from './judge-check.ts';
import { capturedAreas, snapshotBlobKeys } from './snapshot-content.ts';
import { updateIdFor } from './update-id.ts';
import { type ScreenshotChoice, writeUpdateScreenshots } from './update-screenshots.ts';
import type { WatchSettingsSource } from './watch-settings.ts';

export interface RecordCheckDeps {
  blobs: BlobStore;
  settings: WatchSettingsSource;
  logger: Logger;
  now: () => Date;
}

/**
 * Judges one snapshot in the caller's transaction: records the check's result, the area versions
 * and the update, and writes checks.completed (always) and changes.detected (updates) to the
 * outbox. Answers the snapshot's blobs nothing refers to any more, for the caller to delete once
 * the transaction has committed.
 */
export async function recordCheck(
  tx: Sql,
  snapshot: checksEventsV1.SnapshotCaptured,
  deps: RecordCheckDeps,
): Promise<string[]> {
  const written = snapshotBlobKeys(snapshot);
  // Checks of one site are judged one at a time, each against the versions the last one recorded
  // (and a check reported twice at once is seen as judged by the second).
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [snapshot.targetId]);
  if (await hasCheckResult(tx, snapshot.checkId)) return [];
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
  const settings = await currentSettings(tx, deps.settings, snapshot.targetId, snapshot.userId);
  // The site was deleted after the check was sent: nothing of it is kept.
  if (!settings) return written;
  if (snapshot.error) {
    await finish(tx, {
      ...result,
      outcome: 'error',
      errorCode: snapshot.error.code,
      errorDetail: snapshot.error.detail,
    });
    return written;
  }

  const areas = await capturedAreas(snapshot, deps.blobs);
  const versions = await recordedVersions(
    tx,
    snapshot.targetId,
    areas.map((area) => area.areaId),
  );
  const judgement = judgeCheck(areas, settings, versions);
  if (judgement.outcome === 'error') {
    await finish(tx, {
      ...result,
      outcome: 'error',
      errorCode: judgement.errorCode,
      errorDetail: judgement.errorDetail,
    });
    return written;
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
    await finish(tx, result);
    return unreferenced(written, snapshot, judgement);
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
    subject: changeDetected.subject,
    data: changeDetected.encode({
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
  return [...unreferenced(written, snapshot, judgement), ...(await pruneVersions(tx, snapshot.targetId))];
}

async function finish(tx: Sql, result: CheckResultRow): Promise<void> {
  await recordCheckResult(tx, result);
  await writeEvent(tx, DIFF_SCHEMA, {
    id: `checked:${result.checkId}`,
    subject: checkCompleted.subject,
    data: checkCompleted.encode({
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
    }),
  });
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
    if (current) return { currentKey: current, previousKey: previous.areas.get(change.areaId) ?? '' };
  }
  if (snapshot.pageScreenshotBlobKey) {
    return { currentKey: snapshot.pageScreenshotBlobKey, previousKey: previous.page };
  }
  return null;
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
