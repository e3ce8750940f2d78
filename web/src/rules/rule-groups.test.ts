import { validatePythonRegex, validateRuleGroups } from '@mimamori/watch-engine';
import { describe, expect, it } from 'vitest';
import type { NotificationRules } from '../api/target-settings.ts';
import {
  conditionProblem,
  newCondition,
  operandsFor,
  rulePatterns,
  rulesHaveProblems,
  rulesToSave,
  usesArea,
  withOperator,
  withoutArea,
} from './rule-groups.ts';

const keyword = (areaId: string, value: string) => ({ ...newCondition(areaId), value });

describe('saving rule groups', () => {
  it('removes groups without conditions and keeps the rest in order', () => {
    const rules: NotificationRules = {
      combine: 'or',
      groups: [
        { combine: 'and', conditions: [] },
        { combine: 'and', conditions: [keyword('a1', 'sale')] },
        { combine: 'or', conditions: [] },
        { combine: 'or', conditions: [keyword('a2', 'stock')] },
      ],
    };
    expect(rulesToSave(rules)).toEqual({
      combine: 'or',
      groups: [
        { combine: 'and', conditions: [keyword('a1', 'sale')] },
        { combine: 'or', conditions: [keyword('a2', 'stock')] },
      ],
    });
  });

  it('sends no rules when every group is empty, which means notify on every update', () => {
    expect(rulesToSave({ combine: 'and', groups: [{ combine: 'and', conditions: [] }] })).toBeUndefined();
    expect(rulesToSave({ combine: 'and', groups: [] })).toBeUndefined();
  });
});

describe('operators and operands', () => {
  it('lets numeric conditions read the full text only', () => {
    expect(operandsFor('increase')).toEqual(['all']);
    expect(operandsFor('decrease_percent')).toEqual(['all']);
    expect(operandsFor('keyword')).toEqual(['all', 'new', 'old']);
  });

  it('moves the operand to the full text when a numeric operator is chosen, and keeps it otherwise', () => {
    const condition = { ...newCondition('a1'), operand: 'new' as const };
    expect(withOperator(condition, 'greater')).toMatchObject({ operator: 'greater', operand: 'all' });
    expect(withOperator(condition, 'not_re')).toMatchObject({ operator: 'not_re', operand: 'new' });
  });
});

describe('a deselected area', () => {
  const rules: NotificationRules = {
    combine: 'and',
    groups: [
      { combine: 'and', conditions: [keyword('a1', 'x'), keyword('a2', 'y')] },
      { combine: 'and', conditions: [keyword('a1', 'z')] },
    ],
  };

  it('is known to be used by a rule', () => {
    expect(usesArea(rules, 'a1')).toBe(true);
    expect(usesArea(rules, 'a3')).toBe(false);
  });

  it('takes its conditions with it, and a group left empty goes too', () => {
    expect(withoutArea(rules, 'a1')).toEqual({
      combine: 'and',
      groups: [{ combine: 'and', conditions: [keyword('a2', 'y')] }],
    });
  });
});

describe('a condition checked before saving', () => {
  const condition = (operator: Parameters<typeof withOperator>[1], value: string) => ({
    ...withOperator(newCondition('a1'), operator),
    value,
  });

  it('needs a keyword for keyword conditions', () => {
    expect(conditionProblem(condition('keyword', ' '))).toBe('value_required');
    expect(conditionProblem(condition('not_keyword', 'sold out'))).toBeUndefined();
  });

  it('needs a number to compare with, but not for a change by any amount', () => {
    expect(conditionProblem(condition('greater', ''))).toBe('value_required');
    expect(conditionProblem(condition('less', 'cheap'))).toBe('value_not_a_number');
    expect(conditionProblem(condition('greater', '１，０００円'))).toBeUndefined();
    expect(conditionProblem(condition('increase', ''))).toBeUndefined();
    expect(conditionProblem(condition('decrease_percent', '5%'))).toBeUndefined();
  });

  it('needs a pattern, and leaves its syntax to the gateway, which runs Register’s RE2 check', () => {
    expect(conditionProblem(condition('re', ''))).toBe('value_required');
    expect(conditionProblem(condition('not_re', ' '))).toBeUndefined();
    expect(conditionProblem(condition('re', '(?<=a)b'))).toBeUndefined();
  });

  it('refuses a value longer than the engine keeps', () => {
    expect(conditionProblem(condition('keyword', 'x'.repeat(1_001)))).toBe('value_too_long');
    expect(conditionProblem(condition('keyword', 'x'.repeat(1_000)))).toBeUndefined();
  });

  it('lists each pattern to check once, and none that is empty', () => {
    const rules: NotificationRules = {
      combine: 'or',
      groups: [
        { combine: 'and', conditions: [condition('re', 'a+'), condition('keyword', 'a+')] },
        {
          combine: 'and',
          conditions: [condition('not_re', 'a+'), condition('re', ''), condition('re', 'b')],
        },
      ],
    };
    expect(rulePatterns(rules)).toEqual(['a+', 'b']);
  });

  // Register never refuses what the step let through: the step's own checks, plus the gateway's
  // answer for each pattern (validatePythonRegex, which POST /api/v2/pattern/check runs), refuse
  // exactly the conditions the watch engine refuses when the site is saved.
  const values: [Parameters<typeof withOperator>[1], string][] = [
    ['keyword', ''],
    ['keyword', ' '],
    ['keyword', '在庫あり'],
    ['keyword', 'x'.repeat(1_001)],
    ['re', ''],
    ['re', ' '],
    ['re', '(?<=a)b'],
    ['re', 'a(b'],
    ['re', '\\d+円'],
    ['not_re', '(a)\\1'],
    ['not_re', 'a*+'],
    ['re', 'x'.repeat(1_001)],
    ['greater', ''],
    ['greater', 'cheap'],
    ['less', '１，０００円'],
    ['increase', ''],
    ['decrease_percent', '-5'],
  ];
  it.each(values)('%s “%s”: refused here exactly when Register refuses it', (operator, value) => {
    const rules: NotificationRules = {
      combine: 'and',
      groups: [{ combine: 'and', conditions: [condition(operator, value)] }],
    };
    const answer = validatePythonRegex(value);
    const fromGateway = new Map(answer.ok ? [] : [[value, answer.code]]);
    expect(rulesHaveProblems(rules, fromGateway)).toBe(!validateRuleGroups(rules, ['a1']).ok);
  });

  it('finds a problem anywhere in the groups', () => {
    const ok = { combine: 'and' as const, conditions: [condition('keyword', 'x')] };
    const bad = {
      combine: 'and' as const,
      conditions: [condition('keyword', 'x'), condition('greater', '')],
    };
    expect(rulesHaveProblems({ combine: 'or', groups: [ok] })).toBe(false);
    expect(rulesHaveProblems({ combine: 'or', groups: [ok, bad] })).toBe(true);
  });
});
