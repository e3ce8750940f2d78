import { reportUsage } from './report-usage.ts';
import { type Caller, siteFits } from './site-quota.ts';
import { isResumable, needOf, type SiteRowView, toSiteRow } from './site-row.ts';
import type { TargetPort, TargetUnit } from './target-port.ts';
import { TargetProblem } from './target-problem.ts';
import type { TargetRecord } from './target-record.ts';

export interface ActionOutcome {
  /** Absent after delete. */
  row: SiteRowView | null;
  /** False when the site already was in the asked state: a repeated action does nothing. */
  changed: boolean;
}

export interface SiteRef {
  version: 1 | 2;
  targetId: string;
}

/** /api/pause (v1) and /api/v2/pause (v2). */
export function pauseTarget(caller: Caller, ref: SiteRef, targets: TargetPort): Promise<ActionOutcome> {
  return act(caller, ref, targets, async (unit, site) => {
    if (site.paused) return { site, changed: false };
    const paused: TargetRecord = { ...site, paused: true, pausedReason: 'user', revision: site.revision + 1 };
    await unit.save(paused);
    await unit.publish('paused', paused);
    await reportUsage(unit);
    return { site: paused, changed: true };
  });
}

/** Resumes only when a slot is free and the account is not on hold (docs/product.md#quotas). */
export function resumeTarget(caller: Caller, ref: SiteRef, targets: TargetPort): Promise<ActionOutcome> {
  return act(caller, ref, targets, async (unit, site) => {
    if (!site.paused) return { site, changed: false };
    if (caller.held) throw new TargetProblem('precondition', 'account_on_hold');
    const active = await unit.activeSites(site.id);
    if (!siteFits(caller, active.map(needOf), needOf(site)))
      throw new TargetProblem('precondition', 'no_free_slot');
    const resumed: TargetRecord = { ...site, paused: false, pausedReason: null, revision: site.revision + 1 };
    await unit.save(resumed);
    await unit.publish('resumed', resumed);
    await reportUsage(unit);
    return { site: resumed, changed: true };
  });
}

export async function deleteTarget(
  caller: Caller,
  ref: SiteRef,
  targets: TargetPort,
): Promise<ActionOutcome> {
  return targets.forUser(caller.userId, ref.targetId, async (unit) => {
    const site = await unit.find(ref.targetId, ref.version);
    if (!site) throw new TargetProblem('not_found', 'not_found');
    await unit.remove(site);
    await unit.publishDeleted({ ...site, revision: site.revision + 1 });
    await reportUsage(unit);
    return { row: null, changed: true };
  });
}

async function act(
  caller: Caller,
  ref: SiteRef,
  targets: TargetPort,
  work: (unit: TargetUnit, site: TargetRecord) => Promise<{ site: TargetRecord; changed: boolean }>,
): Promise<ActionOutcome> {
  return targets.forUser(caller.userId, ref.targetId, async (unit) => {
    const site = await unit.find(ref.targetId, ref.version);
    if (!site) throw new TargetProblem('not_found', 'not_found');
    const done = await work(unit, site);
    const sites = (await unit.allSites()).map((other) => (other.id === done.site.id ? done.site : other));
    return { row: toSiteRow(done.site, isResumable(caller, done.site, sites)), changed: done.changed };
  });
}
