import { firstNumber } from './first-number.ts';
import {
  type NotificationRules,
  NUMERIC_OPERATORS,
  RULE_LIMITS,
  RULE_OPERATORS,
  type RuleCondition,
  type RuleGroup,
  type RuleOperator,
} from './notification-rules.ts';
import { validatePythonRegex } from './python-regex/user-regex.ts';
import { isRecord, type Validated, type ValidationProblem } from './validation.ts';

const OPERANDS = ['all', 'new', 'old'] as const;
const COMBINES = ['and', 'or'] as const;
// increase/decrease with no value mean 'by any amount'; greater and less need a number to compare with.
const VALUE_OPTIONAL: ReadonlySet<RuleOperator> = new Set([
  'increase',
  'decrease',
  'increase_percent',
  'decrease_percent',
]);

/**
 * Checks a site's notification rules against its area ids. Empty groups are deleted (docs/product.md#rules);
 * numeric operators need the 'all' operand and a number; keywords a value; re/not_re a pattern RE2 runs.
 */
export function validateRuleGroups(input: unknown, areaIds: readonly string[]): Validated<NotificationRules> {
  const problems: ValidationProblem[] = [];
  if (!isRecord(input) || !Array.isArray(input.groups)) {
    return {
      ok: false,
      problems: [{ path: '', code: 'invalid_type', message: 'rules must be { combine, groups: [...] }' }],
    };
  }
  const combine = oneOf(input.combine ?? 'and', COMBINES, 'combine', problems);
  if (input.groups.length > RULE_LIMITS.groups) {
    problems.push({
      path: 'groups',
      code: 'too_many',
      message: `more than ${RULE_LIMITS.groups} rule groups`,
    });
  }
  const groups: RuleGroup[] = [];
  input.groups.forEach((group: unknown, groupIndex: number) => {
    const path = `groups[${groupIndex}]`;
    if (!isRecord(group) || !Array.isArray(group.conditions)) {
      problems.push({
        path,
        code: 'invalid_type',
        message: 'a rule group must be { combine, conditions: [...] }',
      });
      return;
    }
    if (group.conditions.length === 0) return;
    if (group.conditions.length > RULE_LIMITS.conditionsPerGroup) {
      problems.push({
        path: `${path}.conditions`,
        code: 'too_many',
        message: `more than ${RULE_LIMITS.conditionsPerGroup} conditions in a group`,
      });
    }
    const conditions = group.conditions.map((condition: unknown, conditionIndex: number) =>
      validateCondition(condition, `${path}.conditions[${conditionIndex}]`, areaIds, problems),
    );
    groups.push({
      combine: oneOf(group.combine ?? 'and', COMBINES, `${path}.combine`, problems),
      conditions,
    });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { combine, groups } };
}

function validateCondition(
  input: unknown,
  path: string,
  areaIds: readonly string[],
  problems: ValidationProblem[],
): RuleCondition {
  if (!isRecord(input)) {
    problems.push({
      path,
      code: 'invalid_type',
      message: 'a condition must be { areaId, operand, operator, value }',
    });
    return { areaId: '', operand: 'all', operator: 'keyword', value: '' };
  }
  const areaId = typeof input.areaId === 'string' ? input.areaId : '';
  if (!areaIds.includes(areaId)) {
    problems.push({
      path: `${path}.areaId`,
      code: 'unknown_area',
      message: 'the condition names no area of this site',
    });
  }
  const operand = oneOf(input.operand, OPERANDS, `${path}.operand`, problems, 'invalid_operand');
  const operator = oneOf(input.operator, RULE_OPERATORS, `${path}.operator`, problems, 'invalid_operator');
  const value = typeof input.value === 'string' ? input.value : '';
  if (typeof input.value !== 'string' && input.value !== undefined) {
    problems.push({ path: `${path}.value`, code: 'invalid_type', message: 'the value must be text' });
  }
  if (value.length > RULE_LIMITS.valueLength) {
    problems.push({
      path: `${path}.value`,
      code: 'too_long',
      message: `the value is longer than ${RULE_LIMITS.valueLength} characters`,
    });
  }
  const valuePath = `${path}.value`;
  // What the value must be depends on the operator; an unknown operator is reported once, above.
  if (operator !== input.operator) return { areaId, operand, operator, value };
  if (NUMERIC_OPERATORS.has(operator)) {
    if (operand !== 'all') {
      problems.push({
        path: `${path}.operand`,
        code: 'numeric_needs_all',
        message: 'numeric conditions apply to the full text only',
      });
    }
    const optional = VALUE_OPTIONAL.has(operator) && value.trim() === '';
    const threshold = optional ? 0 : firstNumber(value);
    if (threshold === null) {
      problems.push({ path: valuePath, code: 'not_a_number', message: 'the value must be a number' });
    } else if (VALUE_OPTIONAL.has(operator) && threshold < 0) {
      problems.push({
        path: valuePath,
        code: 'out_of_range',
        message: 'the amount of change cannot be negative',
      });
    }
  } else if (operator === 're' || operator === 'not_re') {
    const checked = validatePythonRegex(value);
    if (!checked.ok) problems.push({ path: valuePath, code: checked.code, message: checked.message });
  } else if (value.trim() === '') {
    problems.push({ path: valuePath, code: 'required', message: 'the keyword is empty' });
  }
  return { areaId, operand, operator, value };
}

function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  path: string,
  problems: ValidationProblem[],
  code: 'invalid_type' | 'invalid_operand' | 'invalid_operator' = 'invalid_type',
): T {
  if (allowed.includes(value as T)) return value as T;
  problems.push({ path, code, message: `${path || 'value'} must be one of ${allowed.join(', ')}` });
  return allowed[0] as T;
}
