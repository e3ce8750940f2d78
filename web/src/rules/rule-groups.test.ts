import { describe, expect, it } from 'vitest';
import type { NotificationRules } from '../api/target-settings.ts';
import {
  newCondition,
  operandsFor,
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
