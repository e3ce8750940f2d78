import { reportUsage } from './report-usage.ts';
import type { TargetPort, TargetUnit } from './target-port.ts';
import { TargetProblem } from './target-problem.ts';
import { type Caller, targetFits } from './target-quota.ts';
import type { TargetRecord } from './target-record.ts';
import { isResumable, needOf, type TargetRowView, toTargetRow } from './target-row.ts';

export interface ActionOutcome {
  /** Absent after delete. */
  row: TargetRowView | null;
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
    const active = await unit.activeTargets(site.id);
    if (!targetFits(caller, active.map(needOf), needOf(site)))
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
    const sites = (await unit.allTargets()).map((other) => (other.id === done.site.id ? done.site : other));
    return { row: toTargetRow(done.site, isResumable(caller, done.site, sites)), changed: done.changed };
  });
}
