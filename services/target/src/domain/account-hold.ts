import { reportUsage } from './report-usage.ts';
import type { TargetPort, TargetUnit } from './target-port.ts';
import { TargetProblem } from './target-problem.ts';
import { type Caller, type SiteHistoryLimits, targetFits } from './target-quota.ts';
import { needOf } from './target-row.ts';

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

/**
 * The hold was lifted and the user asks, in one click, for what the hold stopped to monitor again
 * (docs/product.md#subscription): the sites paused with the reason `hold`, in list order, each
 * only into a free slot. Sites the user paused, or that waited for a slot, stay as they are.
 */
export async function resumeHeldSites(
  caller: Caller,
  targets: TargetPort,
): Promise<{ resumed: number; stillPaused: number }> {
  if (caller.held) throw new TargetProblem('precondition', 'account_on_hold');
  return targets.forUser(caller.userId, null, async (unit) => {
    const held = (await unit.allTargets())
      .filter((site) => site.paused && site.pausedReason === 'hold')
      .sort((a, b) => a.no - b.no);
    const active = (await unit.activeTargets()).map(needOf);
    let resumed = 0;
    for (const site of held) {
      if (!targetFits(caller, active, needOf(site))) continue;
      const monitoring = { ...site, paused: false, pausedReason: null, revision: site.revision + 1 };
      await unit.save(monitoring);
      await unit.publish('resumed', monitoring);
      active.push(needOf(site));
      resumed++;
    }
    if (resumed > 0) await reportUsage(unit);
    return { resumed, stillPaused: held.length - resumed };
  });
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
