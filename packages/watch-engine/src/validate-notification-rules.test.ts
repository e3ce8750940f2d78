import { describe, expect, test } from 'vitest';
import { validateRuleGroups } from './validate-notification-rules.ts';

const AREAS = ['price', 'news'];

describe('validateRuleGroups', () => {
  test('accepts valid rules and deletes empty groups', () => {
    const result = validateRuleGroups(
      {
        combine: 'or',
        groups: [
          { combine: 'and', conditions: [] },
          {
            combine: 'and',
            conditions: [
              { areaId: 'price', operand: 'all', operator: 'less', value: '¥1,000' },
              { areaId: 'news', operand: 'new', operator: 're', value: String.raw`(?i)new\s+item` },
              { areaId: 'price', operand: 'all', operator: 'increase', value: '' },
            ],
          },
        ],
      },
      AREAS,
    );
    expect(result.ok).toBe(true);
    expect(result.ok && result.value.groups).toHaveLength(1);
    expect(result.ok && result.value.combine).toBe('or');
  });

  test('refuses what cannot be evaluated, naming each problem', () => {
    const result = validateRuleGroups(
      {
        combine: 'xor',
        groups: [
          {
            combine: 'and',
            conditions: [
              { areaId: 'gone', operand: 'all', operator: 'keyword', value: 'x' },
              { areaId: 'price', operand: 'new', operator: 'greater', value: '100' },
              { areaId: 'price', operand: 'all', operator: 'less', value: 'cheap' },
              { areaId: 'price', operand: 'all', operator: 'decrease', value: '-5' },
              { areaId: 'news', operand: 'old', operator: 'not_re', value: '(?<=a)b' },
              { areaId: 'news', operand: 'everything', operator: 'contains', value: '' },
              { areaId: 'news', operand: 'all', operator: 'keyword', value: ' ' },
            ],
          },
        ],
      },
      AREAS,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.path, p.code])).toEqual([
      ['combine', 'invalid_type'],
      ['groups[0].conditions[0].areaId', 'unknown_area'],
      ['groups[0].conditions[1].operand', 'numeric_needs_all'],
      ['groups[0].conditions[2].value', 'not_a_number'],
      ['groups[0].conditions[3].value', 'out_of_range'],
      ['groups[0].conditions[4].value', 'unsupported_lookaround'],
      ['groups[0].conditions[5].operand', 'invalid_operand'],
      ['groups[0].conditions[5].operator', 'invalid_operator'],
      ['groups[0].conditions[6].value', 'required'],
    ]);
  });

  test('refuses input of the wrong shape', () => {
    expect(validateRuleGroups(null, AREAS).ok).toBe(false);
    expect(validateRuleGroups({ combine: 'and', groups: [{ combine: 'and' }] }, AREAS).ok).toBe(false);
  });
});
