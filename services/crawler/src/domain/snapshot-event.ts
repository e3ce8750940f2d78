import type { BlobStore } from '@mimamori/blob-store/blob-store';
import type { checksEventsV1 } from '@mimamori/contracts';
import type { SecretBox } from '@mimamori/secret-box';
import { sealingContext } from './open-check-job.ts';
import type { FetchResult } from './page-fetcher.ts';

/** Area content larger than this (HTML and text together) goes to the blob store instead of the event. */
export const INLINE_AREA_BYTES = 32 * 1024;

/**
 * The snapshot event of a finished check. Large area content and screenshots are written to
 * the blob store first, under keys derived from the check, so a redelivered check overwrites
 * the same blobs and the event it publishes (same message id) is dropped as a duplicate.
 */
export async function snapshotEvent(
  job: checksEventsV1.RunCheck,
  result: FetchResult,
  deps: { blobs: BlobStore; now: Date },
): Promise<checksEventsV1.SnapshotCaptured> {
  const base = {
    eventId: job.checkId,
    checkId: job.checkId,
    targetId: job.targetId,
    userId: job.userId,
    ...(job.dueAt ? { dueAt: job.dueAt } : {}),
    capturedAt: deps.now,
    fetchMode: job.fetchMode,
    // The diff service judges the snapshot with the settings the check was planned with.
    ...(job.watch ? { watch: job.watch } : {}),
  };
  if (!result.ok) {
    return {
      ...base,
      finalUrl: '',
      httpStatus: 0,
      areas: [],
      pageScreenshotBlobKey: '',
      error: {
        code: result.code,
        detail: result.detail,
        retryable: result.retryable,
        areaId: result.areaId ?? '',
      },
    };
  }
  const folder = `${segment(job.targetId)}/${segment(job.dueAt?.toISOString() ?? job.checkId)}`;
  const areas = await Promise.all(
    result.areas.map(async (area): Promise<checksEventsV1.SnapshotArea> => {
      const large = Buffer.byteLength(area.html) + Buffer.byteLength(area.text) > INLINE_AREA_BYTES;
      const name = segment(area.areaId);
      const htmlKey = large ? `snapshots/${folder}/${name}.html` : '';
      const textKey = large ? `snapshots/${folder}/${name}.txt` : '';
      if (large) {
        await deps.blobs.put(htmlKey, Buffer.from(area.html), { contentType: 'text/html; charset=utf-8' });
        await deps.blobs.put(textKey, Buffer.from(area.text), { contentType: 'text/plain; charset=utf-8' });
      }
      let screenshotKey = '';
      if (area.screenshot) {
        screenshotKey = `screenshots/${folder}/${name}.${extension(area.screenshot.contentType)}`;
        await deps.blobs.put(screenshotKey, area.screenshot.data, {
          contentType: area.screenshot.contentType,
        });
      }
      return {
        areaId: area.areaId,
        found: area.found,
        html: large ? '' : area.html,
        text: large ? '' : area.text,
        htmlBlobKey: htmlKey,
        textBlobKey: textKey,
        screenshotBlobKey: screenshotKey,
        ...(area.pageBox ? { pageBox: area.pageBox } : {}),
      };
    }),
  );
  let pageScreenshotBlobKey = '';
  if (result.pageScreenshot) {
    pageScreenshotBlobKey = `screenshots/${folder}/page.${extension(result.pageScreenshot.contentType)}`;
    await deps.blobs.put(pageScreenshotBlobKey, result.pageScreenshot.data, {
      contentType: result.pageScreenshot.contentType,
    });
  }
  return {
    ...base,
    finalUrl: result.finalUrl,
    httpStatus: result.status,
    areas,
    pageScreenshotBlobKey,
  };
}

/**
 * What a successful check leaves for the next checks of its site, when it leaves anything new
 * (ADR 0016, 0031, 0037): the session it kept, the areas' digest when it differs from the one the
 * check carried (that one is kept already), and what a full render kept for revalidating. A check
 * that leaves nothing new (most) answers undefined, and the scheduler hears nothing of it.
 */
export function keptStateEvent(
  job: checksEventsV1.RunCheck,
  result: FetchResult,
  secrets: SecretBox | undefined,
): checksEventsV1.CheckStateKept | undefined {
  if (!result.ok || !job.dueAt) return undefined;
  const kept = {
    sealedSessionState:
      result.sessionState && secrets
        ? secrets.seal(result.sessionState, sealingContext.session(job.targetId))
        : '',
    areasDigest: result.areasDigest !== job.previousAreasDigest ? (result.areasDigest ?? '') : '',
    sealedRevalidationState:
      result.revalidation && secrets
        ? secrets.seal(result.revalidation, sealingContext.revalidation(job.targetId))
        : '',
  };
  if (!kept.sealedSessionState && !kept.areasDigest && !kept.sealedRevalidationState) return undefined;
  return {
    eventId: `state:${job.checkId}`,
    checkId: job.checkId,
    targetId: job.targetId,
    dueAt: job.dueAt,
    ...kept,
  };
}

/** One blob-key segment: only the characters keys allow, never starting with a dot. */
function segment(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^\.+/, '_') || '_';
}

function extension(contentType: string): string {
  if (contentType.includes('webp')) return 'webp';
  if (contentType.includes('png')) return 'png';
  return 'jpg';
}
