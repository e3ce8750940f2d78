import type { BlobStore } from '@mimamori/blob-store';
import type { Db } from '@mimamori/db';
import type { Logger } from '@mimamori/runtime';
import { deleteBlobs } from '../events/blobs.ts';
import { limitedSites, trimSiteHistory } from '../store/history-retention.ts';

/** What one sweep removed, over every site. */
export interface SweepOutcome {
  sites: number;
  updates: number;
  checks: number;
  blobs: number;
}

/**
 * Trims every limited site's history (docs/product.md#history), one site per transaction under
 * the same lock its checks are judged with, so a check being recorded is never cut in half; the
 * pictures of the removed rows are deleted once those rows are gone (a crash in between leaves a
 * blob no row names, never a row without its blob).
 */
export async function sweepHistory(deps: {
  db: Db;
  blobs: BlobStore;
  logger: Logger;
  now: Date;
}): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { sites: 0, updates: 0, checks: 0, blobs: 0 };
  let after = '';
  for (;;) {
    const sites = await limitedSites(deps.db, after, 500);
    if (sites.length === 0) break;
    for (const targetId of sites) {
      const trimmed = await deps.db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [targetId]);
        return trimSiteHistory(tx, targetId, deps.now);
      });
      await deleteBlobs(deps.blobs, deps.logger, trimmed.blobKeys);
      outcome.sites++;
      outcome.updates += trimmed.updates;
      outcome.checks += trimmed.checks;
      outcome.blobs += trimmed.blobKeys.length;
    }
    after = sites[sites.length - 1] as string;
  }
  if (outcome.updates + outcome.checks > 0) deps.logger.info(outcome, 'history trimmed to the plan limits');
  return outcome;
}

// 03:00 in Japan, where most accounts sleep: the sweep's deletes land in the quietest hours.
const NIGHT_HOUR_UTC = 18;

/**
 * Runs the history sweep once a night: the service host's retention tick comes every hour, so
 * one falls in the night hour, and that one sweeps (a second in the same hour does not). Both
 * run modes host the module, so both sweep.
 */
export function nightlyHistorySweep(deps: {
  db: Db;
  blobs: BlobStore;
  logger: Logger;
  now: () => Date;
}): () => Promise<SweepOutcome | null> {
  let lastNight = '';
  return async () => {
    const now = deps.now();
    const night = now.toISOString().slice(0, 10);
    if (now.getUTCHours() !== NIGHT_HOUR_UTC || night === lastNight) return null;
    lastNight = night;
    return sweepHistory({ ...deps, now });
  };
}
