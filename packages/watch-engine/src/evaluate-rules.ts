import { firstNumber } from './first-number.ts';
import { foldWidth } from './normalise/fold-width.ts';
import { type NotificationRules, NUMERIC_OPERATORS, type RuleCondition } from './notification-rules.ts';
import { compileUserRegex, searchUserRegex } from './python-regex/user-regex.ts';

/** What conditions read from one area of the check. */
export interface AreaRuleView {
  /** Normalised full text now. */
  readonly all: string;
  /** The added part (lines with highlighted additions), '' when nothing was added. */
  readonly new: string;
  /** The deleted part, '' when nothing was deleted. */
  readonly old: string;
  /** Normalised full text of the previous version; null on the first check. */
  readonly previousAll: string | null;
}

export interface MatchedCondition {
  readonly groupIndex: number;
  readonly conditionIndex: number;
  readonly condition: RuleCondition;
}

export interface RulesVerdict {
  readonly notify: boolean;
  readonly matchedConditions: readonly MatchedCondition[];
}

// Percentages are computed in floating point: 1.1 to 1.21 is 10.000000000000002 %, 100 to 90 may land
// just under 10. A tolerance far below any threshold a person writes keeps the boundary inclusive.
const PERCENT_TOLERANCE = 1e-9;

/**
 * Evaluates validated rules. Empty groups are dropped; with no group left every update notifies. Every
 * condition is evaluated (no short circuit) so the matched list is complete. A condition whose area is
 * not in the check, or whose number is missing on either side it needs, is false.
 */
export function evaluateRules(
  rules: NotificationRules | undefined,
  areas: ReadonlyMap<string, AreaRuleView>,
): RulesVerdict {
  const matchedConditions: MatchedCondition[] = [];
  const groupResults: boolean[] = [];
  (rules?.groups ?? []).forEach((group, groupIndex) => {
    if (group.conditions.length === 0) return;
    const results = group.conditions.map((condition, conditionIndex) => {
      const matched = conditionHolds(condition, areas.get(condition.areaId));
      if (matched) matchedConditions.push({ groupIndex, conditionIndex, condition });
      return matched;
    });
    groupResults.push(group.combine === 'and' ? results.every(Boolean) : results.some(Boolean));
  });
  if (groupResults.length === 0) return { notify: true, matchedConditions };
  const notify = rules?.combine === 'or' ? groupResults.some(Boolean) : groupResults.every(Boolean);
  return { notify, matchedConditions };
}

function conditionHolds(condition: RuleCondition, area: AreaRuleView | undefined): boolean {
  if (!area) return false;
  const { operator, value } = condition;
  if (NUMERIC_OPERATORS.has(operator)) return numericConditionHolds(condition, area);
  const text = area[condition.operand];
  switch (operator) {
    case 'keyword':
      return foldForKeyword(text).includes(foldForKeyword(value));
    case 'not_keyword':
      return !foldForKeyword(text).includes(foldForKeyword(value));
    case 're':
      return searchUserRegex(compileUserRegex(value), text);
    default:
      return !searchUserRegex(compileUserRegex(value), text);
  }
}

/** Numeric operators read the full text only, whatever the operand says (docs/product.md#rules). */
function numericConditionHolds(condition: RuleCondition, area: AreaRuleView): boolean {
  const current = firstNumber(area.all);
  const threshold = condition.value.trim() === '' ? 0 : firstNumber(condition.value);
  if (current === null || threshold === null) return false;
  if (condition.operator === 'greater') return current > threshold;
  if (condition.operator === 'less') return current < threshold;
  const previous = area.previousAll === null ? null : firstNumber(area.previousAll);
  if (previous === null) return false;
  const change = current - previous;
  switch (condition.operator) {
    case 'increase':
      return change > 0 && change >= threshold;
    case 'decrease':
      return change < 0 && -change >= threshold;
    case 'increase_percent':
      return (
        change > 0 && (previous === 0 || (change / Math.abs(previous)) * 100 >= threshold - PERCENT_TOLERANCE)
      );
    default:
      return (
        change < 0 &&
        (previous === 0 || (-change / Math.abs(previous)) * 100 >= threshold - PERCENT_TOLERANCE)
      );
  }
}

/** Keywords ignore case and width (see foldWidth), and compare whitespace as one space. */
export function foldForKeyword(text: string): string {
  return foldWidth(text).toLowerCase().replace(/\s+/gu, ' ').trim();
}
