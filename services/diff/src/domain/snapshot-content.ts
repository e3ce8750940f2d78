import type { BlobStore } from '@mimamori/blob-store';
import type { checksEventsV1 } from '@mimamori/contracts';
import type { CapturedArea } from './judge-check.ts';

/** The snapshot's areas with content that was too large for the event read from the blob store. */
export async function capturedAreas(
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
    })),
  );
}

/** Every blob the crawler wrote for the snapshot. */
export function snapshotBlobKeys(snapshot: checksEventsV1.SnapshotCaptured): string[] {
  const keys = snapshot.areas.flatMap((area) => [area.htmlBlobKey, area.textBlobKey, area.screenshotBlobKey]);
  keys.push(snapshot.pageScreenshotBlobKey);
  return keys.filter((key) => key !== '');
}

async function blobText(blobs: BlobStore, key: string): Promise<string> {
  const blob = await blobs.get(key);
  // The crawler writes the blob before publishing the event, so a missing one is a lost blob:
  // retrying will not bring it back, and an empty area is reported as such by the engine.
  return blob ? Buffer.from(blob.data).toString('utf8') : '';
}
