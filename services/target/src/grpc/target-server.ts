import type { targetV1 } from '@mimamori/contracts';
import { unaryHandler } from '@mimamori/service-host';
import { resumeHeldSites } from '../domain/account-hold.ts';
import { importTargets } from '../domain/import-targets.ts';
import { registerTarget, type SaveDeps, type SavedTarget, updateTarget } from '../domain/save-target.ts';
import {
  type ActionOutcome,
  deleteTarget,
  pauseTarget,
  resumeTarget,
  type SiteRef,
} from '../domain/target-actions.ts';
import { isTargetId } from '../domain/target-id.ts';
import { TargetProblem } from '../domain/target-problem.ts';
import { targetRows } from '../domain/target-row.ts';
import type { ImportFormat } from '../domain/url-import.ts';
import { targetState } from '../store/target-events.ts';
import type { TargetStore } from '../store/target-store.ts';
import { answering } from './problem-status.ts';
import { callerOf, rowMessage, settingsInput, settingsMessage } from './target-messages.ts';

const IMPORT_FORMATS = ['', 'list', 'csv', 'yaml'] as const;
const STATES_PAGE = 500;
const STATES_PAGE_MAX = 1_000;

/**
 * Every method acts for the caller the gateway resolved from the session, and only on that
 * user's sites: another user's site id answers not_found, like an id that never existed.
 */
export function targetServer(deps: SaveDeps & { targets: TargetStore }): targetV1.TargetServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));
  const savedMessage = (saved: SavedTarget): targetV1.SavedTarget => ({
    targetId: saved.record.id,
    paused: saved.record.paused,
    pausedForQuota: saved.pausedForQuota,
    row: rowMessage(saved.row),
    revision: saved.record.revision,
  });
  const resultMessage = (outcome: ActionOutcome): targetV1.TargetActionResult => ({
    row: outcome.row ? rowMessage(outcome.row) : undefined,
    changed: outcome.changed,
  });

  return {
    registerTarget: rpc(async (request: targetV1.RegisterTargetRequest) => ({
      saved: savedMessage(
        await registerTarget(callerOf(request.caller), settingsInput(request.settings), deps),
      ),
    })),

    updateTarget: rpc(async (request: targetV1.UpdateTargetRequest) => {
      const caller = callerOf(request.caller);
      const targetId = knownId(request.targetId);
      return {
        saved: savedMessage(
          await updateTarget(
            caller,
            targetId,
            settingsInput(request.settings),
            deps,
            request.expectedRevision,
          ),
        ),
      };
    }),

    getTarget: rpc(async (request: targetV1.GetTargetRequest) => {
      const caller = callerOf(request.caller);
      const sites = await deps.targets.list(caller.userId);
      const site = sites.find((candidate) => candidate.id === request.targetId);
      const row = targetRows(caller, sites).find((candidate) => candidate.id === request.targetId);
      if (!site || !row) throw new TargetProblem('not_found', 'not_found');
      return {
        targetId: site.id,
        version: site.version,
        settings: settingsMessage(site),
        row: rowMessage(row),
        revision: site.revision,
      };
    }),

    listTargets: rpc(async (request: targetV1.ListTargetsRequest) => {
      const caller = callerOf(request.caller);
      return { rows: targetRows(caller, await deps.targets.list(caller.userId)).map(rowMessage) };
    }),

    pauseTarget: rpc(async (request: targetV1.PauseTargetRequest) => {
      const [caller, ref] = refOf(request.target);
      return { result: resultMessage(await pauseTarget(caller, ref, deps.targets)) };
    }),

    resumeTarget: rpc(async (request: targetV1.ResumeTargetRequest) => {
      const [caller, ref] = refOf(request.target);
      return { result: resultMessage(await resumeTarget(caller, ref, deps.targets)) };
    }),

    deleteTarget: rpc(async (request: targetV1.DeleteTargetRequest) => {
      const [caller, ref] = refOf(request.target);
      return { result: resultMessage(await deleteTarget(caller, ref, deps.targets)) };
    }),

    resumeHeldTargets: rpc(async (request: targetV1.ResumeHeldTargetsRequest) => {
      const { resumed, stillPaused } = await resumeHeldSites(callerOf(request.caller), deps.targets);
      return { resumed, stillPaused };
    }),

    markTargetSeen: rpc(async (request: targetV1.MarkTargetSeenRequest) => {
      const [caller, ref] = refOf(request.target);
      if (!(await deps.targets.markSeen(caller.userId, ref.targetId, ref.version)))
        throw new TargetProblem('not_found', 'not_found');
      const row = targetRows(caller, await deps.targets.list(caller.userId)).find(
        (site) => site.id === ref.targetId,
      );
      return { row: row ? rowMessage(row) : undefined };
    }),

    listTargetStates: rpc(async (request: targetV1.ListTargetStatesRequest) => {
      if (request.afterId !== '' && !isTargetId(request.afterId))
        throw new TargetProblem('invalid', 'after_id_invalid', 'after_id');
      const limit = Math.min(Math.max(request.limit || STATES_PAGE, 1), STATES_PAGE_MAX);
      const sites = await deps.targets.states(request.afterId, limit);
      const now = new Date();
      return {
        states: sites.map((site) => targetState(site, `state:${site.id}:${site.revision}`, now)),
        nextAfterId: sites.length === limit ? (sites.at(-1)?.id ?? '') : '',
      };
    }),

    importTargets: rpc(async (request: targetV1.ImportTargetsRequest) => {
      const caller = callerOf(request.caller);
      const format = request.format as ImportFormat | '';
      if (!(IMPORT_FORMATS as readonly string[]).includes(format))
        throw new TargetProblem('invalid', 'import_format_invalid', 'format');
      if (request.text.trim() === '') throw new TargetProblem('invalid', 'import_empty', 'text');
      const outcome = await importTargets(caller, request.text, format, deps);
      return {
        imported: outcome.imported.map(rowMessage),
        problems: outcome.problems,
        format: outcome.format,
      };
    }),
  };
}

function refOf(message: targetV1.TargetRef | undefined): [ReturnType<typeof callerOf>, SiteRef] {
  const caller = callerOf(message?.caller);
  const version = message?.version;
  if (version !== 1 && version !== 2) throw new TargetProblem('invalid', 'version_invalid', 'version');
  return [caller, { version, targetId: knownId(message?.targetId ?? '') }];
}

/** An id that cannot name a site answers like one that names another user's. */
function knownId(targetId: string): string {
  if (!isTargetId(targetId)) throw new TargetProblem('not_found', 'not_found');
  return targetId;
}
