import { reportUsage } from './report-usage.ts';
import type { TargetUnit } from './target-port.ts';
import type { SiteHistoryLimits } from './target-quota.ts';

/**
 * An account put on hold stops all its monitoring (docs/product.md#subscription): every monitoring site is
 * paused with the reason `hold`. Lifting the hold does not resume them; the user does.
 */
export async function pauseAllForHold(unit: TargetUnit): Promise<number> {
  const active = await unit.activeTargets();
  for (const site of active) {
    const paused = { ...site, paused: true, pausedReason: 'hold' as const, revision: site.revision + 1 };
    await unit.save(paused);
    await unit.publish('paused', paused);
  }
  if (active.length > 0) await reportUsage(unit);
  return active.length;
}

/** A cancelled account's sites are deleted, and with them (by the event) schedules and history. */
export async function deleteAllForCancel(unit: TargetUnit): Promise<number> {
  const sites = await unit.allTargets();
  for (const site of sites) {
    await unit.remove(site);
    await unit.publishDeleted({ ...site, revision: site.revision + 1 });
  }
  if (sites.length > 0) await reportUsage(unit);
  return sites.length;
}

/**
 * The account's plan changed: every site, monitoring or paused, keeps the new plan's history from
 * now on (docs/product.md#history), so an upgrade keeps more at once and a downgrade trims at the
 * next sweep. Sites already on those limits are left alone.
 */
export async function moveToPlanHistory(unit: TargetUnit, history: SiteHistoryLimits): Promise<number> {
  const sites = await unit.allTargets();
  let moved = 0;
  for (const site of sites) {
    if (site.history.updates === history.updates && site.history.checkDays === history.checkDays) continue;
    const limited = { ...site, history, revision: site.revision + 1 };
    await unit.save(limited);
    await unit.publish('updated', limited);
    moved++;
  }
  return moved;
}
