import {
  type AreaCheckInput,
  type AreaComparison,
  type AreaErrorReason,
  type AreaResult,
  compareArea,
} from './compare-area.ts';
import { type AreaRuleView, evaluateRules, type MatchedCondition } from './evaluate-rules.ts';
import type { NotificationRules } from './notification-rules.ts';
import { RegexProblem } from './python-regex/regex-problem.ts';
import { validateRuleGroups } from './validate-notification-rules.ts';

export interface CheckInput {
  readonly areas: readonly AreaCheckInput[];
  /** The site's rule groups; absent or without non-empty groups, every update notifies. */
  readonly rules?: NotificationRules;
}

export type CheckErrorReason = AreaErrorReason | 'invalid_rules' | 'engine_failure';

export type CheckResult =
  | { readonly kind: 'no_change'; readonly areas: readonly AreaResult[] }
  | {
      readonly kind: 'update';
      /** Whether the rule groups say to notify; the update is recorded in history either way. */
      readonly notify: boolean;
      readonly matchedConditions: readonly MatchedCondition[];
      readonly updatedAreaIds: readonly string[];
      readonly areas: readonly AreaResult[];
    }
  | {
      readonly kind: 'error';
      readonly reason: CheckErrorReason;
      /** The area that failed, for area errors. */
      readonly areaId?: string;
      readonly message: string;
      /** Per-area results computed before the error was known; empty for rule and engine errors. */
      readonly areas: readonly AreaResult[];
    };

/**
 * Decides one check: for each area whether it was updated and the diff a person will see, then whether
 * to notify. An update is reported only when some area's diff has highlighted text, and that diff is the
 * one notification and history show. Never throws: unexpected failures come back as 'engine_failure'.
 */
export function evaluateCheck(input: CheckInput): CheckResult {
  try {
    const areaIds = input.areas.map((area) => area.areaId);
    const ruleProblems = input.rules ? checkRules(input.rules, areaIds) : [];
    if (ruleProblems.length > 0) {
      return { kind: 'error', reason: 'invalid_rules', message: ruleProblems.join('; '), areas: [] };
    }
    const comparisons = input.areas.map(compareSafely);
    const areas = comparisons.map((comparison) => comparison.result);
    const failed = areas.find((area) => area.outcome === 'error');
    if (failed?.outcome === 'error') {
      return { kind: 'error', reason: failed.reason, areaId: failed.areaId, message: failed.message, areas };
    }
    const updatedAreaIds = areas.filter((area) => area.outcome === 'updated').map((area) => area.areaId);
    if (updatedAreaIds.length === 0) return { kind: 'no_change', areas };
    const verdict = evaluateRules(input.rules, ruleViews(comparisons));
    return { kind: 'update', ...verdict, updatedAreaIds, areas };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'error', reason: 'engine_failure', message, areas: [] };
  }
}

/** Rules are validated at registration; this catches rules stored before a validation rule existed. */
function checkRules(rules: NotificationRules, areaIds: readonly string[]): string[] {
  const checked = validateRuleGroups(rules, areaIds);
  if (checked.ok) return [];
  // A condition on an area that is gone is simply false; it does not make the whole check fail.
  return checked.problems
    .filter((problem) => problem.code !== 'unknown_area')
    .map((problem) => `${problem.path}: ${problem.message}`);
}

function compareSafely(area: AreaCheckInput): AreaComparison {
  try {
    return compareArea(area);
  } catch (error) {
    if (!(error instanceof RegexProblem)) throw error;
    return {
      result: {
        areaId: area.areaId,
        outcome: 'error',
        reason: 'invalid_area_options',
        message: `an excluded regex cannot run: ${error.message}`,
      },
      previousText: null,
    };
  }
}

function ruleViews(comparisons: readonly AreaComparison[]): Map<string, AreaRuleView> {
  const views = new Map<string, AreaRuleView>();
  for (const { result, previousText } of comparisons) {
    if (result.outcome === 'error') continue;
    const counted = result.outcome === 'updated';
    views.set(result.areaId, {
      all: result.text,
      new: counted ? result.diff.added.join('\n') : '',
      old: counted ? result.diff.removed.join('\n') : '',
      previousAll: previousText,
    });
  }
  return views;
}
