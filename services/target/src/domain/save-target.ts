import { reportUsage } from './report-usage.ts';
import type { SettingsInput } from './settings-input.ts';
import type { TargetPort } from './target-port.ts';
import { TargetProblem } from './target-problem.ts';
import {
  type Caller,
  KEEP_ALL_HISTORY,
  MAX_TARGETS_PER_USER,
  NO_READER,
  targetFits,
} from './target-quota.ts';
import type { PausedReason, TargetRecord, TargetSettingsRecord } from './target-record.ts';
import { needOf, type TargetRowView, targetRows } from './target-row.ts';
import { type Seal, validateSettings } from './validate-settings.ts';

export interface SaveDeps {
  targets: TargetPort;
  seal: Seal;
  /** The crawlers have a proxy pool: the proxy option can be honoured. */
  proxyPool: boolean;
  newId(): string;
}

export interface SavedTarget {
  record: TargetRecord;
  /** Saved paused because no slot of the plan was free (docs/product.md#quotas). */
  pausedForQuota: boolean;
  row: TargetRowView;
}

/** Registers a v2 site; with no free slot it is saved paused (docs/product.md#quotas). */
export async function registerTarget(
  caller: Caller,
  input: SettingsInput,
  deps: SaveDeps,
): Promise<SavedTarget> {
  const id = deps.newId();
  const settings = validateSettings(input, {
    targetId: id,
    previous: null,
    seal: deps.seal,
    proxyPool: deps.proxyPool,
  });
  return deps.targets.forUser(caller.userId, null, async (unit) => {
    if ((await unit.allTargets()).length >= MAX_TARGETS_PER_USER)
      throw new TargetProblem('precondition', 'too_many_sites');
    const active = await unit.activeTargets();
    const state = pausedState(caller, input.paused, active, settings);
    const record: TargetRecord = {
      ...settings,
      id,
      userId: caller.userId,
      version: 2,
      no: await unit.nextNo(),
      ...state,
      isNew: false,
      revision: 1,
      lastUpdateAt: null,
      lastCheckedAt: null,
      failing: null,
      reader: caller.reader ?? NO_READER,
      history: caller.history ?? KEEP_ALL_HISTORY,
    };
    await unit.insert(record);
    await unit.publish('registered', record);
    await reportUsage(unit);
    return saved(caller, record, [...active, record]);
  });
}

/**
 * Replaces a v2 site's settings; again saved paused when it no longer fits the plan. With
 * `expectedRevision` (the revision the edit started from) a site changed since is refused, so
 * one tab's save never silently puts back what another saved (docs/product.md#edit-conflicts).
 */
export async function updateTarget(
  caller: Caller,
  targetId: string,
  input: SettingsInput,
  deps: SaveDeps,
  expectedRevision?: number,
): Promise<SavedTarget> {
  return deps.targets.forUser(caller.userId, targetId, async (unit) => {
    const previous = await unit.find(targetId, 2);
    if (!previous) throw new TargetProblem('not_found', 'not_found');
    if (expectedRevision !== undefined && expectedRevision !== previous.revision)
      throw new TargetProblem('conflict', 'edit_conflict');
    const settings = validateSettings(input, {
      targetId,
      previous,
      seal: deps.seal,
      proxyPool: deps.proxyPool,
    });
    const active = await unit.activeTargets(targetId);
    const record: TargetRecord = {
      ...previous,
      ...settings,
      ...pausedState(caller, input.paused, active, settings),
      revision: previous.revision + 1,
      // Saving picks up the language and time zone the account has now.
      reader: caller.reader ?? previous.reader,
      history: caller.history ?? previous.history,
    };
    await unit.save(record);
    await unit.publish('updated', record);
    await reportUsage(unit);
    return saved(caller, record, [...active, record]);
  });
}

function pausedState(
  caller: Caller,
  pausedByUser: boolean,
  active: readonly TargetRecord[],
  settings: TargetSettingsRecord,
): { paused: boolean; pausedReason: PausedReason | null } {
  if (pausedByUser) return { paused: true, pausedReason: 'user' };
  if (targetFits(caller, active.map(needOf), needOf(settings))) return { paused: false, pausedReason: null };
  return { paused: true, pausedReason: caller.held ? 'hold' : 'quota' };
}

function saved(caller: Caller, record: TargetRecord, sites: TargetRecord[]): SavedTarget {
  const row = targetRows(caller, sites).find((candidate) => candidate.id === record.id);
  if (!row) throw new Error('saved site missing from its own list');
  return { record, pausedForQuota: record.pausedReason === 'quota' || record.pausedReason === 'hold', row };
}
