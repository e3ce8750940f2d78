import { firstNumber } from '@mimamori/watch-engine/first-number';
import { NUMERIC_OPERATORS, RULE_LIMITS } from '@mimamori/watch-engine/notification-rules';
import type {
  NotificationRules,
  RuleCondition,
  RuleGroup,
  RuleOperand,
  RuleOperator,
} from '../api/target-settings.ts';

export const RULE_OPERANDS: readonly RuleOperand[] = ['all', 'new', 'old'];

/** docs/product.md#rules: numeric conditions read the first number of the full text only. */
export const isNumericOperator = (operator: RuleOperator) => NUMERIC_OPERATORS.has(operator);

/** The operands a condition with this operator may read. */
export function operandsFor(operator: RuleOperator): readonly RuleOperand[] {
  return isNumericOperator(operator) ? ['all'] : RULE_OPERANDS;
}

export const emptyRules = (): NotificationRules => ({ combine: 'or', groups: [] });

export const newCondition = (areaId: string): RuleCondition => ({
  areaId,
  operand: 'new',
  operator: 'keyword',
  value: '',
});

export const newGroup = (areaId: string): RuleGroup => ({
  combine: 'and',
  conditions: [newCondition(areaId)],
});

/** A condition after its operator changed: a numeric operator moves the operand to the full text. */
export function withOperator(condition: RuleCondition, operator: RuleOperator): RuleCondition {
  const operand = operandsFor(operator).includes(condition.operand) ? condition.operand : 'all';
  return { ...condition, operator, operand };
}

/**
 * The rules as they are saved: groups left without conditions are removed (docs/product.md#rules), and
 * no group at all means 'notify on every update', sent as no rules.
 */
export function rulesToSave(rules: NotificationRules): NotificationRules | undefined {
  const groups = rules.groups.filter((group) => group.conditions.length > 0);
  return groups.length === 0 ? undefined : { combine: rules.combine, groups };
}

/** The rules with every condition on a removed area dropped (and groups left empty removed). */
export function withoutArea(rules: NotificationRules, areaId: string): NotificationRules {
  return {
    combine: rules.combine,
    groups: rules.groups
      .map((group) => ({ ...group, conditions: group.conditions.filter((c) => c.areaId !== areaId) }))
      .filter((group) => group.conditions.length > 0),
  };
}

export const usesArea = (rules: NotificationRules, areaId: string) =>
  rules.groups.some((group) => group.conditions.some((condition) => condition.areaId === areaId));

/** Increase and decrease without a value mean 'by any amount'; the other numeric ones compare with it. */
const VALUE_OPTIONAL: ReadonlySet<RuleOperator> = new Set([
  'increase',
  'decrease',
  'increase_percent',
  'decrease_percent',
]);

export type ConditionProblem = 'value_required' | 'value_not_a_number' | 'value_negative' | 'value_too_long';

const isPatternOperator = (operator: RuleOperator) => operator === 're' || operator === 'not_re';

/**
 * What the watch engine would refuse in a condition's value, found before saving: keywords and
 * patterns need one, numeric conditions a number (full-width digits and 万 read too; an amount of
 * change not below zero), and none may be longer than the engine keeps. A pattern's own syntax is the gateway's to judge (usePatternProblems).
 */
export function conditionProblem(condition: RuleCondition): ConditionProblem | undefined {
  if (condition.value.length > RULE_LIMITS.valueLength) return 'value_too_long';
  const value = condition.value.trim();
  if (isNumericOperator(condition.operator)) {
    if (value === '') return VALUE_OPTIONAL.has(condition.operator) ? undefined : 'value_required';
    // The engine's own reading of the number, so the step and Register agree on every value.
    const number = firstNumber(value);
    if (number === null) return 'value_not_a_number';
    return VALUE_OPTIONAL.has(condition.operator) && number < 0 ? 'value_negative' : undefined;
  }
  // A pattern is kept as typed: Register refuses an empty one, not one of spaces.
  if (isPatternOperator(condition.operator)) return condition.value === '' ? 'value_required' : undefined;
  return value === '' ? 'value_required' : undefined;
}

/** The distinct regular expressions the rules' re/not_re conditions hold, for the check as typed. */
export function rulePatterns(rules: NotificationRules): string[] {
  const patterns = rules.groups.flatMap((group) =>
    group.conditions
      .filter((condition) => isPatternOperator(condition.operator) && condition.value !== '')
      .map((condition) => condition.value),
  );
  return [...new Set(patterns)];
}

export const rulesHaveProblems = (
  rules: NotificationRules,
  patternProblems: ReadonlyMap<string, string> = new Map(),
) =>
  rules.groups.some((group) =>
    group.conditions.some(
      (condition) =>
        conditionProblem(condition) !== undefined ||
        (isPatternOperator(condition.operator) && patternProblems.has(condition.value)),
    ),
  );
