import { NUMERIC_OPERATORS } from '@mimamori/watch-engine/notification-rules';
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

export type ConditionProblem = 'value_required' | 'value_not_a_number';

/**
 * What the watch engine would refuse in a condition's value, found before saving: keywords and
 * patterns need one, numeric conditions a number (full-width digits and 万 read too).
 */
export function conditionProblem(condition: RuleCondition): ConditionProblem | undefined {
  const value = condition.value.trim();
  if (isNumericOperator(condition.operator)) {
    if (value === '') return VALUE_OPTIONAL.has(condition.operator) ? undefined : 'value_required';
    return /[0-9０-９]/.test(value) ? undefined : 'value_not_a_number';
  }
  if (condition.operator === 're' || condition.operator === 'not_re') return undefined;
  return value === '' ? 'value_required' : undefined;
}

export const rulesHaveProblems = (rules: NotificationRules) =>
  rules.groups.some((group) =>
    group.conditions.some((condition) => conditionProblem(condition) !== undefined),
  );
