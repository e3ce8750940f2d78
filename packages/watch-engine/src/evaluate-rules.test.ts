import { describe, expect, test } from 'vitest';
import { type AreaRuleView, evaluateRules } from './evaluate-rules.ts';
import type { NotificationRules, RuleCondition, RuleOperand, RuleOperator } from './notification-rules.ts';

const VIEW: AreaRuleView = {
  all: '価格 ¥1,200 (税込)\n在庫あり\nSale ends soon',
  new: '在庫あり',
  old: '在庫なし',
  previousAll: '価格 ¥1,500 (税込)\n在庫なし\nSale ends soon',
};

function holds(
  operator: RuleOperator,
  value: string,
  operand: RuleOperand = 'all',
  view: AreaRuleView = VIEW,
): boolean {
  const condition: RuleCondition = { areaId: 'a', operand, operator, value };
  const rules: NotificationRules = { combine: 'and', groups: [{ combine: 'and', conditions: [condition] }] };
  return evaluateRules(rules, new Map([['a', view]])).notify;
}

describe('text operators', () => {
  test.each([
    ['keyword', '在庫あり', 'all', true],
    ['keyword', '在庫なし', 'all', false],
    ['keyword', '在庫なし', 'old', true],
    ['keyword', '在庫あり', 'new', true],
    ['keyword', 'SALE ENDS', 'all', true],
    ['keyword', 'ｓａｌｅ', 'all', true],
    ['not_keyword', '売り切れ', 'all', true],
    ['not_keyword', '在庫あり', 'new', false],
    ['re', '在庫(あり|残りわずか)', 'new', true],
    ['re', '^Sale', 'all', false],
    ['re', '(?m)^Sale', 'all', true],
    ['re', String.raw`¥\d{1,3}(,\d{3})*`, 'all', true],
    ['not_re', '売り切れ|SOLD', 'all', true],
    ['not_re', 'なし$', 'old', false],
  ] as const)('%s %j on %s → %s', (operator, value, operand, expected) => {
    expect(holds(operator, value, operand)).toBe(expected);
  });

  test('keywords ignore half-width katakana and emoji variation selectors', () => {
    const view = { ...VIEW, all: 'ｾｰﾙ開催中 ❤️ 人気' };
    expect(holds('keyword', 'セール', 'all', view)).toBe(true);
    expect(holds('keyword', '❤ 人気', 'all', view)).toBe(true);
    expect(holds('keyword', '開催中 ❤\uFE0E', 'all', view)).toBe(true);
  });

  test('an empty added part contains no keyword and matches not_keyword', () => {
    const view = { ...VIEW, new: '' };
    expect(holds('keyword', '在庫', 'new', view)).toBe(false);
    expect(holds('not_keyword', '在庫', 'new', view)).toBe(true);
  });
});

describe('numeric operators read the first number of the full text', () => {
  test.each([
    ['greater', '1,000', true],
    ['greater', '1200', false],
    ['less', '１，５００円', true],
    ['less', '1,200', false],
    ['decrease', '', true],
    ['decrease', '300', true],
    ['decrease', '301', false],
    ['increase', '', false],
    ['decrease_percent', '20', true],
    ['decrease_percent', '20.1', false],
    ['increase_percent', '1', false],
  ] as const)('%s %j → %s', (operator, value, expected) => {
    expect(holds(operator, value)).toBe(expected);
  });

  test('English and negative forms', () => {
    const view: AreaRuleView = {
      all: 'Balance: -$1,250.50',
      new: '',
      old: '',
      previousAll: 'Balance: $2,000',
    };
    expect(holds('less', '0', 'all', view)).toBe(true);
    expect(holds('decrease', '3000', 'all', view)).toBe(true);
    expect(holds('decrease_percent', '162.525', 'all', view)).toBe(true);
  });

  test('kanji multipliers: 12万3千 is 123,000', () => {
    const view: AreaRuleView = { all: '売上 12万3千円', new: '', old: '', previousAll: '売上 10万円' };
    expect(holds('increase', '23000', 'all', view)).toBe(true);
    expect(holds('increase_percent', '23', 'all', view)).toBe(true);
    expect(holds('greater', '123,001', 'all', view)).toBe(false);
  });

  test('the operand is ignored: numbers always come from the full text', () => {
    expect(holds('greater', '1000', 'new')).toBe(true);
  });

  test('a percentage boundary is inclusive despite floating point', () => {
    const view: AreaRuleView = { all: '1.21', new: '', old: '', previousAll: '1.1' };
    expect(holds('increase_percent', '10', 'all', view)).toBe(true);
  });

  test('from zero, any increase is more than any percentage', () => {
    const view: AreaRuleView = { all: '在庫 5', new: '', old: '', previousAll: '在庫 0' };
    expect(holds('increase_percent', '1000', 'all', view)).toBe(true);
    expect(holds('decrease_percent', '1', 'all', view)).toBe(false);
  });

  test('a missing number on either side makes the condition false, never an error', () => {
    const noNumberNow: AreaRuleView = { all: '売り切れ', new: '', old: '', previousAll: '残り 3' };
    const noNumberBefore: AreaRuleView = { all: '残り 3', new: '', old: '', previousAll: '準備中' };
    const firstCheck: AreaRuleView = { all: '残り 3', new: '', old: '', previousAll: null };
    for (const operator of [
      'greater',
      'less',
      'increase',
      'decrease',
      'increase_percent',
      'decrease_percent',
    ] as const) {
      expect(holds(operator, '0', 'all', noNumberNow)).toBe(false);
      if (operator !== 'greater' && operator !== 'less') {
        expect(holds(operator, '0', 'all', noNumberBefore)).toBe(false);
        expect(holds(operator, '0', 'all', firstCheck)).toBe(false);
      }
    }
    expect(holds('greater', 'abc', 'all', VIEW)).toBe(false);
  });
});

describe('groups', () => {
  const yes: RuleCondition = { areaId: 'a', operand: 'all', operator: 'keyword', value: '在庫あり' };
  const no: RuleCondition = { areaId: 'a', operand: 'all', operator: 'keyword', value: '売り切れ' };
  const run = (rules: NotificationRules) => evaluateRules(rules, new Map([['a', VIEW]]));

  test.each([
    ['and', 'and', [[yes, yes], [yes]], true],
    ['and', 'and', [[yes, no], [yes]], false],
    ['and', 'or', [[yes, no], [yes]], true],
    ['or', 'and', [[no], [yes, yes]], true],
    ['or', 'and', [[no], [yes, no]], false],
    ['or', 'or', [[no, no], [no]], false],
  ] as const)('groups %s, conditions %s: %j → %s', (top, inner, groups, expected) => {
    const rules: NotificationRules = {
      combine: top,
      groups: groups.map((conditions) => ({ combine: inner, conditions })),
    };
    expect(run(rules).notify).toBe(expected);
  });

  test('empty groups are dropped; with none left every update notifies', () => {
    expect(run({ combine: 'and', groups: [{ combine: 'and', conditions: [] }] }).notify).toBe(true);
    expect(
      run({
        combine: 'and',
        groups: [
          { combine: 'or', conditions: [] },
          { combine: 'and', conditions: [yes] },
        ],
      }).notify,
    ).toBe(true);
    expect(evaluateRules(undefined, new Map()).notify).toBe(true);
  });

  test('every matched condition is listed with its place', () => {
    const verdict = run({ combine: 'or', groups: [{ combine: 'or', conditions: [yes, no, yes] }] });
    expect(verdict.matchedConditions.map((m) => [m.groupIndex, m.conditionIndex])).toEqual([
      [0, 0],
      [0, 2],
    ]);
  });
});
